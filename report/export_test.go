package report

// For the tests of package report_test, which check the SARIF of cicheck's
// real rules (package lint imports report, so they live outside it).
var (
	SchemaValidate   = schemaValidate
	CheckGitHubSARIF = checkGitHubSARIF
)

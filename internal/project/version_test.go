package project

import (
	"runtime/debug"
	"testing"
)

func TestSemVerOf(t *testing.T) {
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{}, "0.0.0-dev"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.0.0-dev"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "0.3.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.3.1-0.20261201000000-abcdef123456+dirty"}}, "0.3.1-0.20261201000000-abcdef123456+dirty"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}}}, "0.0.0-dev+rev.0123456789ab"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}}, "0.3.0+rev.abc.modified"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "a/b"}}}, "0.0.0-dev"},
	} {
		if got := semVerOf(&c.bi); got != c.want {
			t.Errorf("semVerOf(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
}

if True:
	x = 1
	if x:
		register_cpu_ci(1, "a")
register_cpu_ci(1, "stage-a-cpu")

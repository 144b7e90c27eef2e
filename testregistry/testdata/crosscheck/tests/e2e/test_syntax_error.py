register_cpu_ci(1, "stage-a-cpu")
x = [1, 2
register_cpu_ci(2, "stage-a-cpu")

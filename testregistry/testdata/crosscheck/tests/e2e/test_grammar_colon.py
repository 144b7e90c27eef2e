register_cpu_ci(1, "stage-a-cpu")
if ready
    pass

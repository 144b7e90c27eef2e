register_cpu_ci(1, "stage-a-cpu")


def helper():
    f() = 1

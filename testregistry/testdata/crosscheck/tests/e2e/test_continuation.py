value = 1 + \
    2
register_cuda_ci(value, "s", labels=["short"])
register_cuda_ci(1, "stage-c-8-gpu-h100", \
    labels=["short"])
if True: \
    register_cuda_ci(1, "s", labels=["short"])
s = 'register_cpu_ci(1, "x")' \
    "register_cpu_ci(1, 'y')"

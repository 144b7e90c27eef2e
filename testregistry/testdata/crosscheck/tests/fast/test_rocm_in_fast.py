register_rocm_ci(1, "stage-c-4-gpu-mi350", labels=["amd"])
register_cpu_ci(1, "stage-a-cpu")

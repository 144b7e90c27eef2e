def f():
    register_rocm_ci(1, "stage-c-4-gpu-mi350", labels=["amd"])

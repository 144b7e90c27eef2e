import contextlib

async def main():
    register_cuda_ci(1, "s", labels=["short"])

with contextlib.suppress(Exception):
    register_cuda_ci(1, "s", labels=["short"])

try:
    pass
except ImportError:
    register_cuda_ci(1, "s", labels=["short"])
else:
    register_cuda_ci(1, "s", labels=["short"])
finally:
    register_cuda_ci(1, "s", labels=["short"])

for i in range(3): register_cuda_ci(1, "s", labels=["short"])
while False: register_cuda_ci(1, "s", labels=["short"])

match x:
    case 1:
        register_cuda_ci(1, "s", labels=["short"])

@decorator(register_cuda_ci(1, "s", labels=["short"]))
def f(): pass

lambda: register_cuda_ci(1, "s", labels=["short"])
y = [register_cuda_ci(1, "s", labels=["short"]) for _ in ()]
register_rocm_ci(est_time=30.5, suite="stage-c-4-gpu-mi350", labels=["amd"], nightly=True)

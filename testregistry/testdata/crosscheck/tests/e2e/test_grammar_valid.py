import os

match os.name:
    case "posix" | "nt":
        register_cpu_ci(1, "x")
    case _:
        pass
register_cuda_ci(est_time=5, suite="stage-b-2-gpu-h200", labels=["short"])
x: int = 5
(y := 3)
z = [a := 1, a]
print(*[1], sep="")
async def g():
    async with a as b, c as d:
        await e
    return [i async for i in g()]

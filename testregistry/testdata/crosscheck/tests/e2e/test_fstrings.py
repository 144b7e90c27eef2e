x = 1
a = f"{x!r:>{10}} {{register_cuda_ci(1, 'no')}}"
b = f'{"nested"}' F"{x:{'>'}10}" rf"\{x}"
c = f"""
register_cuda_ci(1, "in an f-string")
{x
 + 1}
"""
register_cuda_ci(est_time=60, suite="stage-b-2-gpu-h200", labels=["short"])

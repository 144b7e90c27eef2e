# -*- coding: utf-8 -*-
名前 = "ü"
register_cuda_ci(est_time=10, suite="stage-b-2-gpu-h200", labels=["short"]); ü = 1
register_cuda_ci(est_time=10, suite="stäge", labels=["short"])

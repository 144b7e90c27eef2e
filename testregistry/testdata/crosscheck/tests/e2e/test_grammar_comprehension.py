register_cpu_ci(1, "stage-a-cpu")
class A:
    def f(self):
        return [x for x in]

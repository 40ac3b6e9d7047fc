import Strata
import StrataTesting

print("strata-bench: benchmarks arrive with the benchmarks issue")

import DemoKit
import Strata
import StrataSandbox

print("strata-demo: the tour arrives with the CLI issue (config: \(DemoKit.defaultConfigPath))")

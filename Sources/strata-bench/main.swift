import Foundation

// strata-bench: prints a table of figures; `--json FILE` also writes them as JSON; `--core`
// skips the network benchmarks (DI, logging, config only: seconds instead of minutes);
// `--check` runs a short subset and exits 1 when a ratio passes its limit (`make bench-check`);
// `--storage` runs only the local store's rows, `--network` only NetworkService against raw
// URLSession on the sandbox, and the HTTP cache; `--cache` only the HTTP cache; `--transfers`
// only big bodies (200 MB downloads and uploads, a resume); `--events` only 10^6 server-sent
// events through `NetworkService.stream`; `--queries` only queries over 100,000 kept values.
// Run with `make bench` (release build). Every row says what it compares.

let arguments = Array(CommandLine.arguments.dropFirst())
var jsonPath: String?
var coreOnly = false
var storageOnly = false
var networkOnly = false
var cacheOnly = false
var transfersOnly = false
var eventsOnly = false
var queriesOnly = false
var check = false
var index = 0
while index < arguments.count {
  switch arguments[index] {
  case "--json" where index + 1 < arguments.count:
    jsonPath = arguments[index + 1]
    index += 2
  case "--core":
    coreOnly = true
    index += 1
  case "--storage":
    storageOnly = true
    index += 1
  case "--network":
    networkOnly = true
    index += 1
  case "--cache":
    cacheOnly = true
    index += 1
  case "--transfers":
    transfersOnly = true
    index += 1
  case "--events":
    eventsOnly = true
    index += 1
  case "--queries":
    queriesOnly = true
    index += 1
  case "--check":
    check = true
    index += 1
  case "--reopen-probe" where index + 1 < arguments.count:
    // A process of its own, so its peak memory is the reopen's alone (see OutboxBenchmarks).
    do {
      print(try await OutboxBenchmarks.reopenProbe(arguments[index + 1]))
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("reopen probe: \(error)\n".utf8))
      exit(1)
    }
  case "--fill-probe" where index + 2 < arguments.count:
    // A store of N pending changes at a path, to profile `--reopen-probe` on by hand.
    do {
      try await OutboxBenchmarks.fill(arguments[index + 1], count: Int(arguments[index + 2]) ?? 0)
      exit(0)
    } catch {
      FileHandle.standardError.write(Data("fill probe: \(error)\n".utf8))
      exit(1)
    }
  case "--help", "-h":
    print(
      "usage: strata-bench [--core | --storage | --network | --cache | --transfers | --events | --queries | --check] [--json FILE]"
    )
    exit(0)
  default:
    FileHandle.standardError.write(
      Data(
        "usage: strata-bench [--core | --storage | --network | --cache | --transfers | --events | --queries | --check] [--json FILE]\n"
          .utf8))
    exit(2)
  }
}

if check {
  do {
    let checks = try await BenchCheck.run()
    print(BenchCheck.markdown(checks))
    let failed = checks.filter { !$0.passed }
    for failure in failed {
      FileHandle.standardError.write(
        Data(
          "bench-check: \(failure.row.name) is \(String(format: "%.2f", failure.row.value))×, past its limit \(failure.limitText)\n"
            .utf8))
    }
    exit(failed.isEmpty ? 0 : 1)
  } catch {
    FileHandle.standardError.write(Data("bench-check: \(error)\n".utf8))
    exit(1)
  }
}

do {
  var results: [BenchmarkResult] = []
  if storageOnly {
    results =
      try await QueryBenchmarks.run() + (try await OutboxBenchmarks.run())
      + (try await DependentChangeBenchmarks.run())
  } else if queriesOnly {
    results = try await QueryBenchmarks.run()
  } else if cacheOnly {
    results = try await CacheBenchmarks.run()
  } else if transfersOnly {
    results = try await TransferBenchmarks.run()
  } else if eventsOnly {
    results = try await EventBenchmarks.run()
  } else if networkOnly {
    results = try await NetworkBenchmarks.run() + (try await CacheBenchmarks.run())
  } else {
    results = try CoreBenchmarks.run() + (try ContentionBenchmarks.run())
    results += [try CLIBenchmarks.offlineExit()].compactMap { $0 }
    if !coreOnly {
      results.append(try await CoreBenchmarks.serviceOverhead())
      results += try await QueryBenchmarks.run()
      results += try await OutboxBenchmarks.run()
      results += try await DependentChangeBenchmarks.run()
      results += try await NetworkBenchmarks.run()
      results += try await CacheBenchmarks.run()
      results += try await TransferBenchmarks.run()
      results += try await EventBenchmarks.run()
    }
  }
  let nameWidth = max(4, results.map(\.name.count).max() ?? 0)
  func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
  print(
    pad("benchmark", nameWidth) + "  " + pad("value", 14) + "  " + pad("target", 10) + "  compares")
  for result in results {
    let value =
      String(format: result.value < 10 ? "%.2f" : "%.1f", result.value) + " " + result.unit
    print(
      pad(result.name, nameWidth) + "  " + pad(value, 14) + "  " + pad(result.target, 10) + "  "
        + result.compares)
  }
  if let jsonPath {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
  }
} catch {
  FileHandle.standardError.write(Data("strata-bench: \(error)\n".utf8))
  exit(1)
}

import Foundation

/// Checks a file against the structure HAR 1.2 requires (the members every reader needs,
/// with their types): what a test of a request log asserts before it reads one.
public enum HARCheck {
  /// What is wrong with `data` as a HAR 1.2 document; empty when nothing is.
  public static func problems(in data: Data) -> [String] {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let log = root["log"] as? [String: Any]
    else { return ["not a JSON object with a 'log' object"] }
    var problems: [String] = []
    func require(_ object: [String: Any], _ path: String, _ checks: [String: (Any) -> Bool]) {
      for (name, valid) in checks.sorted(by: { $0.key < $1.key }) {
        guard let value = object[name] else {
          problems.append("\(path).\(name) is missing")
          continue
        }
        if !valid(value) { problems.append("\(path).\(name) has the wrong type or value") }
      }
    }
    let string: (Any) -> Bool = { $0 is String }
    let number: (Any) -> Bool = { $0 is NSNumber }
    let list: (Any) -> Bool = { $0 is [Any] }
    let object: (Any) -> Bool = { $0 is [String: Any] }
    let time: (Any) -> Bool = { ($0 as? NSNumber).map { $0.doubleValue >= 0 } ?? false }
    let optionalTime: (Any) -> Bool = { ($0 as? NSNumber).map { $0.doubleValue >= -1 } ?? false }
    require(
      log, "log", ["version": { $0 as? String == "1.2" }, "creator": object, "entries": list])
    if let creator = log["creator"] as? [String: Any] {
      require(creator, "log.creator", ["name": string, "version": string])
    }
    let dated = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    for (index, entry) in ((log["entries"] as? [[String: Any]]) ?? []).enumerated() {
      let path = "log.entries[\(index)]"
      require(
        entry, path,
        [
          "startedDateTime": { ($0 as? String).flatMap { try? dated.parse($0) } != nil },
          "time": time, "request": object, "response": object, "cache": object,
          "timings": object,
        ])
      let pairs: (Any) -> Bool = {
        ($0 as? [[String: Any]])?.allSatisfy { $0["name"] is String && $0["value"] is String }
          ?? false
      }
      if let request = entry["request"] as? [String: Any] {
        require(
          request, path + ".request",
          [
            "method": string, "url": string, "httpVersion": string, "cookies": list,
            "headers": pairs, "queryString": pairs, "headersSize": number, "bodySize": number,
          ])
      }
      if let response = entry["response"] as? [String: Any] {
        require(
          response, path + ".response",
          [
            "status": number, "statusText": string, "httpVersion": string, "cookies": list,
            "headers": pairs, "content": object, "redirectURL": string, "headersSize": number,
            "bodySize": number,
          ])
        if let content = response["content"] as? [String: Any] {
          require(content, path + ".response.content", ["size": number, "mimeType": string])
        }
      }
      if let timings = entry["timings"] as? [String: Any] {
        require(timings, path + ".timings", ["send": time, "wait": time, "receive": time])
        for name in ["blocked", "dns", "connect", "ssl"] where timings[name] != nil {
          if !optionalTime(timings[name] as Any) { problems.append("\(path).timings.\(name)") }
        }
      }
    }
    return problems
  }
}

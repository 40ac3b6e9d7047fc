// Saves a large document over and over into the file named by its argument — generation 1,
// 2, 3, … each with a 2 MB payload that says its generation — until it is killed. The crash
// test kills it mid-write and checks that the file still holds one whole generation.
import Foundation
import Strata

struct Generation: Codable, Sendable {
  let number: Int
  let payload: String
}

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: strata-store-probe FILE\n".utf8))
  exit(2)
}
let file = DocumentFile<Generation>(path: CommandLine.arguments[1], version: 1)
var number = 0
while true {
  number += 1
  let marker = String(number)
  let payload = String(repeating: marker + ";", count: (2 << 20) / (marker.count + 1))
  do {
    try file.save(Generation(number: number, payload: payload))
  } catch {
    FileHandle.standardError.write(Data("strata-store-probe: \(error)\n".utf8))
    exit(1)
  }
}

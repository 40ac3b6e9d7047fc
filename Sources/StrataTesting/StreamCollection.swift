/// The first `count` elements of `stream`, or as many as arrived within `limit`: a test that
/// waits for events fails on a regression instead of hanging the suite.
public func firstElements<Element: Sendable>(
  _ count: Int, of stream: AsyncStream<Element>, within limit: Duration = .seconds(10)
) async -> [Element] {
  let collected = await withTaskGroup(of: [Element]?.self) { group in
    group.addTask {
      var elements: [Element] = []
      for await element in stream {
        elements.append(element)
        if elements.count == count { break }
      }
      return elements
    }
    group.addTask {
      try? await Task.sleep(for: limit)
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
  return collected ?? []
}

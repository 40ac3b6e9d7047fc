import DemoKit

/// The slice `skip..<skip+limit` of `items` as a page (limit 0: all).
func slice<Item>(_ items: [Item], limit: Int, skip: Int) -> Page<Item> {
  let start = min(max(0, skip), items.count)
  let end = limit == 0 ? items.count : min(items.count, start + max(0, limit))
  return Page(items: Array(items[start..<end]), total: items.count, skip: start, limit: limit)
}

extension Page {
  /// The whole of `items` as one page.
  public static func preview(_ items: [Item]) -> Page {
    Page(items: items, total: items.count, skip: 0, limit: items.count)
  }
}

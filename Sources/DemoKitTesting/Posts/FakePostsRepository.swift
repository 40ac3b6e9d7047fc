import DemoKit
import Strata

/// Created posts are numbered after the last one, as DummyJSON does.
public typealias FakePostsRepository = FakeCollection<Post>

extension Post: FakeCollectionItem {
  public static func script(_ draft: PostDraft) -> [String] {
    [draft.title, draft.body, String(draft.userId)]
  }
  public static func script(_ edit: PostEdit) -> [String] {
    [edit.title, edit.body].compactMap { $0 }
  }
}

// Sample data in the real service's shape, nobody's real data.

extension Post {
  public static let preview = Post(
    id: 1, title: "His mother had always taught him", body: "not to ever think of himself…",
    userId: 1, tags: ["history", "american"], reactions: .init(likes: 192, dislikes: 25),
    views: 305)

  /// Five posts by the preview users.
  public static let previews: [Post] = (1...5).map { id in
    Post(
      id: id, title: "Post \(id)", body: "The text of post \(id).", userId: id, tags: [],
      reactions: .init(likes: id * 10, dislikes: id), views: id * 100)
  }
}

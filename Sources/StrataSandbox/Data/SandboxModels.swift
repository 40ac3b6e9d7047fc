/// The sandbox's own records, shaped as DummyJSON serves them. (The sandbox does not depend
/// on DemoKit: it is the server, DemoKit is a client.)
struct SandboxUser: Codable, Sendable {
  struct Hair: Codable, Sendable {
    let color: String
    let type: String
  }
  struct Coordinates: Codable, Sendable {
    let lat: Double
    let lng: Double
  }
  struct Address: Codable, Sendable {
    let address: String
    let city: String
    let state: String
    let stateCode: String
    let postalCode: String
    let coordinates: Coordinates
    let country: String
  }
  struct Company: Codable, Sendable {
    let department: String
    let name: String
    let title: String
    let address: Address
  }

  let id: Int
  let firstName: String
  let lastName: String
  let maidenName: String
  let age: Int
  let gender: String
  let email: String
  let phone: String
  let username: String
  let birthDate: String
  let image: String
  let bloodGroup: String
  let height: Double
  let weight: Double
  let eyeColor: String
  let hair: Hair
  let address: Address
  let university: String
  let company: Company
  let role: String
}

struct SandboxPost: Codable, Sendable {
  struct Reactions: Codable, Sendable {
    let likes: Int
    let dislikes: Int
  }
  let id: Int
  let title: String
  let body: String
  let tags: [String]
  let reactions: Reactions
  let views: Int
  let userId: Int
}

struct SandboxTodo: Codable, Sendable {
  let id: Int
  let todo: String
  let completed: Bool
  let userId: Int
}

/// The sandbox's own records, shaped as DummyJSON serves them, every field the real service
/// has (personal ones included, so clients meet them). The sandbox does not depend on DemoKit:
/// it is the server, DemoKit is a client.
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
  struct Bank: Codable, Sendable {
    let cardExpire: String
    let cardNumber: String
    let cardType: String
    let currency: String
    let iban: String
  }
  struct Company: Codable, Sendable {
    let department: String
    let name: String
    let title: String
    let address: Address
  }
  struct Crypto: Codable, Sendable {
    let coin: String
    let wallet: String
    let network: String
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
  let password: String
  let birthDate: String
  let image: String
  let bloodGroup: String
  let height: Double
  let weight: Double
  let eyeColor: String
  let hair: Hair
  let ip: String
  let address: Address
  let macAddress: String
  let university: String
  let bank: Bank
  let company: Company
  let ein: String
  let ssn: String
  let userAgent: String
  let crypto: Crypto
  let role: String

  /// The claims a token carries and a login returns besides the tokens.
  var tokenPayload: [String: Any] {
    [
      "id": id, "username": username, "email": email, "firstName": firstName,
      "lastName": lastName, "gender": gender, "image": image,
    ]
  }
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

struct SandboxComment: Codable, Sendable {
  struct Author: Codable, Sendable {
    let id: Int
    let username: String
    let fullName: String
  }
  let id: Int
  let body: String
  let postId: Int
  let likes: Int
  let user: Author
}

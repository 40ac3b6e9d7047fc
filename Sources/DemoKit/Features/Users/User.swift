/// A DummyJSON user. Fields a `select=` query may leave out are optional.
public struct User: Codable, Sendable, Equatable, Hashable, Identifiable {
  public struct Address: Codable, Sendable, Equatable, Hashable {
    public let address: String
    public let city: String
    public let state: String
    public let postalCode: String

    /// Creates the value (previews, tests, fixtures).
    public init(address: String, city: String, state: String, postalCode: String) {
      (self.address, self.city, self.state, self.postalCode) = (address, city, state, postalCode)
    }
  }

  /// Where the user works.
  public struct Company: Codable, Sendable, Equatable, Hashable {
    public let department: String
    public let name: String
    public let title: String

    /// Creates the value (previews, tests, fixtures).
    public init(department: String, name: String, title: String) {
      (self.department, self.name, self.title) = (department, name, title)
    }
  }

  public let id: Int
  public let firstName: String
  public let lastName: String?
  public let age: Int?
  public let email: String?
  public let username: String?
  public let phone: String?
  public let image: String?
  public let address: Address?
  public let company: Company?
  /// `admin`, `moderator` or `user`.
  public let role: String?

  public var fullName: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }

  /// Creates the value (previews, tests, fixtures).
  public init(
    id: Int, firstName: String, lastName: String? = nil, age: Int? = nil, email: String? = nil,
    username: String? = nil, phone: String? = nil, image: String? = nil, address: Address? = nil,
    company: Company? = nil, role: String? = nil
  ) {
    self.id = id
    self.firstName = firstName
    self.lastName = lastName
    self.age = age
    self.email = email
    self.username = username
    self.phone = phone
    self.image = image
    self.address = address
    self.company = company
    self.role = role
  }
}

extension User: PageItem {
  public static var collectionKey: String { "users" }
}

/// A DummyJSON user. Fields a `select=` query may leave out are optional.
public struct User: Codable, Sendable, Equatable, Hashable, Identifiable {
  /// A postal address.
  public struct Address: Codable, Sendable, Equatable, Hashable {
    /// Street and number.
    public let address: String
    /// City.
    public let city: String
    /// State.
    public let state: String
    /// Postal code.
    public let postalCode: String

    /// Creates the value (previews, tests, fixtures).
    public init(address: String, city: String, state: String, postalCode: String) {
      self.address = address
      self.city = city
      self.state = state
      self.postalCode = postalCode
    }
  }

  /// Where the user works.
  public struct Company: Codable, Sendable, Equatable, Hashable {
    /// Department.
    public let department: String
    /// Company name.
    public let name: String
    /// Job title.
    public let title: String

    /// Creates the value (previews, tests, fixtures).
    public init(department: String, name: String, title: String) {
      self.department = department
      self.name = name
      self.title = title
    }
  }

  /// The user id.
  public let id: Int
  /// Given name.
  public let firstName: String
  /// Family name.
  public let lastName: String?
  /// Age in years.
  public let age: Int?
  /// E-mail address.
  public let email: String?
  /// Login name.
  public let username: String?
  /// Phone number.
  public let phone: String?
  /// Avatar URL.
  public let image: String?
  /// Home address.
  public let address: Address?
  /// Employer.
  public let company: Company?
  /// `admin`, `moderator` or `user`.
  public let role: String?

  /// "First Last".
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
  /// `users`.
  public static var collectionKey: String { "users" }
}

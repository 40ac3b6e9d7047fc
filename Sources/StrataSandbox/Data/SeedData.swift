/// Deterministic seed data in the real service's shapes and field types: 120 users (the first is
/// the demo account `emilys` / `emilyspass`), 150 posts, 150 todos and 300 comments. Every value is
/// generated from small word lists — no real person's data — so every run serves the same API.
struct SeedData: Sendable {
  let users: [SandboxUser]
  let posts: [SandboxPost]
  let todos: [SandboxTodo]
  let comments: [SandboxComment]

  static let standard = SeedData()

  static let userCount = 120
  static let postCount = 150
  static let todoCount = 150
  static let commentCount = 300

  private static let firstNames: [(String, String)] = [
    ("Emily", "female"), ("Michael", "male"), ("Sophia", "female"), ("James", "male"),
    ("Emma", "female"), ("Olivia", "female"), ("Alexander", "male"), ("Ava", "female"),
    ("Ethan", "male"), ("Isabella", "female"), ("Liam", "male"), ("Mia", "female"),
    ("Noah", "male"), ("Charlotte", "female"), ("Lucas", "male"), ("Amelia", "female"),
    ("Benjamin", "male"), ("Harper", "female"), ("Henry", "male"), ("Evelyn", "female"),
  ]
  private static let lastNames = [
    "Johnson", "Williams", "Brown", "Davis", "Miller", "Wilson", "Jones", "Taylor", "Martinez",
    "Anderson", "Garcia", "Rodriguez", "Hernandez", "Lopez", "Gonzalez", "Perez", "Thomas",
  ]
  private static let cities: [(String, String, String)] = [
    ("Phoenix", "Arizona", "AZ"), ("Houston", "Texas", "TX"), ("Denver", "Colorado", "CO"),
    ("Seattle", "Washington", "WA"), ("Boston", "Massachusetts", "MA"), ("Austin", "Texas", "TX"),
    ("Columbus", "Ohio", "OH"),
  ]
  private static let streets = [
    "Main Street", "Oak Lane", "Pine Road", "Elm Avenue", "Tenth Street",
  ]
  private static let departments = [
    "Engineering", "Support", "Marketing", "Research", "Legal", "Sales", "Accounting",
  ]
  private static let words = [
    "history", "crime", "mystery", "love", "fiction", "classic", "english", "french", "magical",
    "american",
  ]
  private static let subjects = [
    "His mother had always taught him", "He was an expert but not in a discipline",
    "Dave watched as the forest burned up on the hill", "All he wanted was a candy bar",
    "Hopes and dreams were dashed that day", "The paper was blank", "She was in a hurry",
    "She had a habit of taking showers in lemonade", "It was a rainy Monday", "The trees were tall",
    "The rain had stopped", "Nobody expected the letter",
  ]
  private static let chores = [
    "Do something nice for someone you care about", "Memorize a poem", "Watch a classic movie",
    "Contribute code to an open source project", "Solve a Rubik's cube",
    "Bake pastries for yourself", "Go see a Broadway production", "Write a thank you letter",
    "Invite friends over", "Learn to juggle", "Plant a tree", "Take a hike",
  ]
  private static let remarks = [
    "This is some awesome thinking!", "What terrific math skills you're showing!",
    "You are an amazing writer!", "Wow! You have improved so much!", "Nice idea!",
    "You are showing excellent understanding!", "This is clear, concise, and complete!",
    "What a powerful argument!", "I knew you could do it!", "Wonderful ideas!",
  ]

  init() {
    var random = Generator(seed: 2_024)
    var users: [SandboxUser] = []
    var usernames = Set<String>()
    for id in 1...Self.userCount {
      let (first, gender) = Self.firstNames[(id - 1) % Self.firstNames.count]
      let last = Self.lastNames[(id - 1) % Self.lastNames.count]
      var username = id == 1 ? "emilys" : (first.prefix(5) + last.prefix(1)).lowercased()
      if !usernames.insert(username).inserted {
        username += String(id)
        usernames.insert(username)
      }
      users.append(
        Self.user(
          id: id, first: first, last: last, gender: gender, username: username,
          random: &random))
    }
    self.users = users

    posts = (1...Self.postCount).map { id in
      SandboxPost(
        id: id, title: Self.subjects[id % Self.subjects.count],
        body:
          "\(Self.subjects[(id + 3) % Self.subjects.count]). \(Self.subjects[(id + 7) % Self.subjects.count]).",
        tags: [Self.words[id % Self.words.count], Self.words[(id * 3 + 1) % Self.words.count]],
        reactions: .init(likes: random.next(below: 2_000), dislikes: random.next(below: 50)),
        views: random.next(below: 5_000), userId: 1 + random.next(below: Self.userCount))
    }
    todos = (1...Self.todoCount).map { id in
      SandboxTodo(
        id: id, todo: Self.chores[id % Self.chores.count], completed: id % 3 == 0,
        userId: 1 + random.next(below: Self.userCount))
    }
    comments = (1...Self.commentCount).map { id in
      let author = users[random.next(below: users.count)]
      return SandboxComment(
        id: id, body: Self.remarks[id % Self.remarks.count],
        postId: 1 + random.next(below: Self.postCount), likes: random.next(below: 10),
        user: .init(
          id: author.id, username: author.username,
          fullName: "\(author.firstName) \(author.lastName)"))
    }
  }

  private static func user(
    id: Int, first: String, last: String, gender: String, username: String,
    random: inout Generator
  ) -> SandboxUser {
    func address() -> SandboxUser.Address {
      let city = cities[random.next(below: cities.count)]
      return SandboxUser.Address(
        address: "\(100 + random.next(below: 900)) \(streets[random.next(below: streets.count)])",
        city: city.0, state: city.1, stateCode: city.2,
        postalCode: String(10_000 + random.next(below: 89_999)),
        coordinates: .init(lat: random.decimal(-90, 90), lng: random.decimal(-180, 180)),
        country: "United States")
    }
    func digits(_ count: Int) -> String {
      (0..<count).map { _ in String(random.next(below: 10)) }.joined()
    }
    func hex(_ count: Int) -> String {
      (0..<count).map { _ in String(random.next(below: 16), radix: 16) }.joined()
    }
    let year = 1960 + random.next(below: 45)
    return SandboxUser(
      id: id, firstName: first, lastName: last,
      maidenName: gender == "female" ? lastNames[(id + 5) % lastNames.count] : "",
      age: 2025 - year, gender: gender,
      email: "\(first.lowercased()).\(last.lowercased())@x.dummyjson.com",
      phone: "+1 555-\(digits(3))-\(digits(4))", username: username,
      password: id == 1 ? "emilyspass" : "\(username)pass",
      birthDate: "\(year)-\(1 + random.next(below: 12))-\(1 + random.next(below: 28))",
      image: "https://dummyjson.com/icon/\(username)/128",
      bloodGroup: ["A+", "A-", "B+", "B-", "O+", "O-", "AB+", "AB-"][random.next(below: 8)],
      height: random.decimal(150, 200), weight: random.decimal(50, 110),
      eyeColor: ["Green", "Brown", "Blue", "Gray", "Amber"][random.next(below: 5)],
      hair: .init(
        color: ["Brown", "Black", "Blonde", "Red", "Gray"][random.next(below: 5)],
        type: ["Curly", "Straight", "Wavy", "Kinky"][random.next(below: 4)]),
      ip: "10.\(random.next(below: 256)).\(random.next(below: 256)).\(1 + random.next(below: 254))",
      address: address(),
      macAddress: (0..<6).map { _ in hex(2) }.joined(separator: ":"),
      university: "University of \(cities[id % cities.count].1)",
      bank: .init(
        cardExpire:
          "\(String(1 + random.next(below: 12)).leftPadded(2))/\(26 + random.next(below: 5))",
        cardNumber: "4000" + digits(12),
        cardType: ["Visa", "Mastercard", "Amex"][random.next(below: 3)],
        currency: ["USD", "EUR", "GBP"][random.next(below: 3)], iban: "GB00TEST" + digits(14)),
      company: .init(
        department: departments[random.next(below: departments.count)],
        name: "\(lastNames[random.next(below: lastNames.count)]) and \(last) Group",
        title: ["Manager", "Engineer", "Analyst", "Director"][random.next(below: 4)],
        address: address()),
      ein: "\(digits(2))-\(digits(7))", ssn: "900-\(digits(2))-\(digits(4))",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Sandbox/\(1 + random.next(below: 9)).0",
      crypto: .init(coin: "Bitcoin", wallet: "0x" + hex(40), network: "Ethereum (ERC20)"),
      role: id == 1 ? "admin" : (id % 5 == 0 ? "moderator" : "user"))
  }

  /// A small deterministic generator (SplitMix64), so the seed is the same on every run.
  private struct Generator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    /// A value in `low...high` with two decimals, as the real data has.
    mutating func decimal(_ low: Int, _ high: Int) -> Double {
      Double(low * 100 + next(below: (high - low) * 100)) / 100
    }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

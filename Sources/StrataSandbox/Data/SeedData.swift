/// Deterministic seed data: 36 users (the first is the demo account `emilys`), 60 posts and
/// 60 todos, generated from small word lists so every run serves the same API.
struct SeedData: Sendable {
  let users: [SandboxUser]
  /// Passwords by username (kept out of the served user records).
  let passwords: [String: String]
  let posts: [SandboxPost]
  let todos: [SandboxTodo]

  static let standard = SeedData()

  private static let people: [(String, String, String)] = [
    ("Emily", "Johnson", "female"), ("Michael", "Williams", "male"), ("Sophia", "Brown", "female"),
    ("James", "Davis", "male"), ("Emma", "Miller", "female"), ("Olivia", "Wilson", "female"),
    ("Alexander", "Jones", "male"), ("Ava", "Taylor", "female"), ("Ethan", "Martinez", "male"),
    ("Isabella", "Anderson", "female"), ("Liam", "Garcia", "male"), ("Mia", "Rodriguez", "female"),
    ("Noah", "Hernandez", "male"), ("Charlotte", "Lopez", "female"), ("Lucas", "Gonzalez", "male"),
    ("Amelia", "Perez", "female"), ("Benjamin", "Thomas", "male"), ("Harper", "Moore", "female"),
    ("Henry", "Jackson", "male"), ("Evelyn", "Martin", "female"), ("Daniel", "Lee", "male"),
    ("Abigail", "Thompson", "female"), ("Matthew", "White", "male"), ("Ella", "Harris", "female"),
    ("Jack", "Clark", "male"), ("Scarlett", "Lewis", "female"), ("Owen", "Walker", "male"),
    ("Grace", "Hall", "female"), ("Samuel", "Allen", "male"), ("Chloe", "Young", "female"),
    ("David", "King", "male"), ("Zoe", "Wright", "female"), ("Joseph", "Scott", "male"),
    ("Lily", "Green", "female"), ("Carter", "Baker", "male"), ("Nora", "Adams", "female"),
  ]
  private static let cities: [(String, String, String)] = [
    ("Phoenix", "Arizona", "AZ"), ("Houston", "Texas", "TX"), ("Denver", "Colorado", "CO"),
    ("Seattle", "Washington", "WA"), ("Boston", "Massachusetts", "MA"), ("Austin", "Texas", "TX"),
  ]
  private static let departments = [
    "Engineering", "Support", "Marketing", "Research", "Legal", "Sales",
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
  ]
  private static let chores = [
    "Do something nice for someone you care about", "Memorize a poem", "Watch a classic movie",
    "Contribute code to an open source project", "Solve a Rubik's cube",
    "Bake pastries for yourself",
    "Go see a Broadway production", "Write a thank you letter", "Invite friends over",
    "Learn to juggle",
  ]

  init() {
    var users: [SandboxUser] = []
    var passwords: [String: String] = [:]
    for (index, person) in Self.people.enumerated() {
      let id = index + 1
      let (first, last, gender) = person
      let username = id == 1 ? "emilys" : (first.prefix(5) + last.prefix(1)).lowercased()
      passwords[username] = id == 1 ? "emilyspass" : "\(username)pass"
      let city = Self.cities[index % Self.cities.count]
      let address = SandboxUser.Address(
        address: "\(100 + id * 7) Main Street", city: city.0, state: city.1, stateCode: city.2,
        postalCode: String(10_000 + id * 137),
        coordinates: .init(lat: 30 + Double(id) / 10, lng: -90 - Double(id) / 10),
        country: "United States")
      users.append(
        SandboxUser(
          id: id, firstName: first, lastName: last, maidenName: "", age: 20 + (id * 7) % 40,
          gender: gender, email: "\(first.lowercased()).\(last.lowercased())@x.dummyjson.com",
          phone: "+1 555-\(padded(id, 3))-\(padded(id * 31 % 10_000, 4))",
          username: username, birthDate: "\(1960 + id)-\(1 + id % 12)-\(1 + id % 28)",
          image: "https://dummyjson.com/icon/\(username)/128",
          bloodGroup: ["A+", "O-", "B+", "AB+"][id % 4],
          height: 150 + Double(id % 40), weight: 50 + Double(id % 50),
          eyeColor: ["Green", "Brown", "Blue", "Gray"][id % 4],
          hair: .init(
            color: ["Brown", "Black", "Blonde", "Red"][id % 4],
            type: ["Curly", "Straight", "Wavy"][id % 3]),
          address: address, university: "University of \(city.1)",
          company: .init(
            department: Self.departments[id % Self.departments.count], name: "\(last) Group",
            title: ["Manager", "Engineer", "Analyst", "Director"][id % 4], address: address),
          role: id == 1 ? "admin" : (id % 5 == 0 ? "moderator" : "user")))
    }
    self.users = users
    self.passwords = passwords

    posts = (1...60).map { id in
      SandboxPost(
        id: id, title: "\(Self.subjects[id % Self.subjects.count]) (\(id))",
        body:
          "\(Self.subjects[(id + 3) % Self.subjects.count]). \(Self.subjects[(id + 7) % Self.subjects.count]).",
        tags: [Self.words[id % Self.words.count], Self.words[(id * 3) % Self.words.count]],
        reactions: .init(likes: id * 13 % 200, dislikes: id * 7 % 40), views: id * 97 % 5000,
        userId: 1 + (id * 5) % Self.people.count)
    }
    todos = (1...60).map { id in
      SandboxTodo(
        id: id, todo: Self.chores[id % Self.chores.count], completed: id % 3 == 0,
        userId: 1 + (id * 11) % Self.people.count)
    }
  }
}

/// Zero-padded decimal.
private func padded(_ value: Int, _ width: Int) -> String {
  let digits = String(value)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

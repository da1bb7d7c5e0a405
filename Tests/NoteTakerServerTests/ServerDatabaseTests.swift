import Foundation
import NoteTakerServer
import Testing

/// `--database`: what it takes, and what its messages say (never a password).
@Suite("The --database argument")
struct ServerDatabaseTests {
    @Test("a password with an unencoded '@' is refused with what to do, and the message holds no part of it")
    func unencodedAt() {
        do {
            _ = try ServerDatabase(argument: "postgres://notes:p@ss-word@db.example.com/notetaker")
            Issue.record("a URL with two '@' was taken")
        } catch {
            #expect(error.message.contains("percent-encoded") && error.message.contains("%40"), "\(error.message)")
            #expect(!error.message.contains("ss-word") && !error.message.contains("p@ss"), "\(error.message)")
        }
    }

    @Test("an encoded password is taken, shown masked, and left out of the argument to paste")
    func encodedPassword() throws {
        let database = try ServerDatabase(argument: "postgres://notes:p%40ss@db.example.com:5433/notetaker?sslmode=require")
        #expect(database.holdsPassword)
        #expect(database.description == "postgres://notes:***@db.example.com:5433/notetaker?sslmode=require")
        #expect(database.argumentWithoutPassword == "postgres://notes@db.example.com:5433/notetaker?sslmode=require")
        let plain = try ServerDatabase(argument: "postgres://notes@db.example.com/notetaker")
        #expect(!plain.holdsPassword && plain.argumentWithoutPassword == "postgres://notes@db.example.com/notetaker")
    }

    @Test("an argument of no known kind is refused without being repeated")
    func unknownKind() {
        do {
            _ = try ServerDatabase(argument: "postgresq://notes:secret@db/notetaker")
            Issue.record("an unknown scheme was taken")
        } catch {
            #expect(error.message.contains("sqlite:FOLDER or postgres://"), "\(error.message)")
            #expect(!error.message.contains("secret"), "\(error.message)")
        }
    }
}

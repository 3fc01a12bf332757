import ArgumentParser

func replayMessages(_ command: ReplayCommand) async throws {
    throw ValidationError("stroke messages are not implemented yet; use --events")
}

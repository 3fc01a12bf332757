import ArgumentParser

func replayEvents(_ command: ReplayCommand) throws {
    throw ValidationError("--events is not implemented yet")
}

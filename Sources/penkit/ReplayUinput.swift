import ArgumentParser

func replayThroughUinput(_ command: ReplayCommand) async throws {
    throw ValidationError("--uinput is not implemented yet")
}

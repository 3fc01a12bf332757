print("penkit: not yet")

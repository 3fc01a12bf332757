print("penkitd: not yet")

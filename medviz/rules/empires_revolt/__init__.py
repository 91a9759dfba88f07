"""*Empire's Revolt* (Ian Hacker, 2018): dice-offs from capital cards, territories, ships, resources, victory."""

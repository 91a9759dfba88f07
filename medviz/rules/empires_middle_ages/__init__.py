"""*Empires of the Middle Ages* (fragment 10.3x-16.2): endeavours by effectiveness rating, conquest, taxation."""

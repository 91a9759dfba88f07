"""Mediterranean Empires (S&T 330): rules data and thin rule code."""

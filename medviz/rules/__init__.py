"""Rulesets: one package per game, data files plus thin rule code."""

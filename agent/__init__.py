"""Agents for AirlineCRM: browser environment, observations, actions, policies, experiment runner."""

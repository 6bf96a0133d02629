"""Agents for AirlineCRM, in layers (docs/architecture.md), each importing only those below it:
crm/ (the CRM's client and tools) < env/ (environments, actions, observations) < episode/ (the policy
contract, one episode's loop and its trajectory) < policies/ (the methods) < experiment/ (runs,
protocols, backends) < results/ (table, report) < the command lines (`python -m agent`, memory/,
examples/, mcp/, export/)."""

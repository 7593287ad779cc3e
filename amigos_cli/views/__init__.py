"""Views: functions from game data or state to rich renderables. They never print."""

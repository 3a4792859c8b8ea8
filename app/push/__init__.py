"""Web Push notifications (issue 31): a player's browsers (subscriptions), which kinds they chose,
the VAPID key, the guarded sender and the events that make pushes. See README "Notifications"."""

"""The hot path: validate, redact secrets, sessionize; and conversation-file import."""

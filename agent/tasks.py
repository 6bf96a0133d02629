"""The six CRM task types, in the papers' order (canonical names)."""
ALL_TASKS = (
    "TASK_FIND_FLIGHT",
    "TASK_BOOK_FLIGHT",
    "TASK_FIND_BOOKING",
    "TASK_CANCEL_FLIGHT",
    "TASK_UPDATE_PASSENGER_DETAILS",
    "TASK_MODIFY_FLIGHT",
)

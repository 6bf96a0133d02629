"""The page's words: every label, heading, button and link text an agent reads to tell what a
control is, with plain synonyms. Variant K says the synonym K of each (cycling where there are
fewer); variant 0 says the first, the words the page has always had. This is the one source of
those texts: the page's template, its scripts (through the page's JSON) and the scoring's targets
(scenarios/targets.py, for gold steps' labels) all read it.

Keys are the page's semantic names (data-testid of variant 0) where a control has one; a few
texts shared by several controls (the airports, the dates) sit under one key.
"""
from __future__ import annotations

from functools import lru_cache

SYNONYMS: dict[str, tuple[str, ...]] = {
    # navigation (also the headings of the screens they open)
    "nav-home": ("Home", "Start", "Dashboard", "Main page", "Overview", "Home page", "Desk"),
    "nav-find-booking": ("Find booking", "Manage trip", "Look up reservation", "Retrieve booking",
                         "Reservations", "Locate booking", "Existing booking"),
    "nav-booking-search": ("Search bookings", "Find by name", "Passenger lookup", "Booking search",
                           "Search by name", "Traveler lookup", "Search reservations"),
    "nav-kb": ("Knowledge base", "Help articles", "Policy articles", "Articles", "Rule book", "Reference",
               "Library"),
    "kb-search-q": ("Search the knowledge base", "Search articles", "Find an article", "Words to look for",
                    "Search terms", "Look up a rule", "Query"),
    "kb-search-submit": ("Search", "Find articles", "Look up", "Go", "Search articles", "Find", "Show articles"),
    "kb-result": ("Choose an article", "Articles found", "Matching articles", "Results", "Pick an article",
                  "Found", "Search results"),
    "kb-open": ("Open article", "Read article", "Show article", "View article", "Open", "Read", "Display article"),
    "kb-superseded-by": ("Open the article in force", "Read the newer article", "Show the current version",
                         "Open the replacement", "Go to the article in force", "Read the current article",
                         "Open the newer version"),
    "nav-policy": ("Policy", "Fare rules", "Airline policy", "Rules", "Terms", "Policies", "Conditions"),
    "nav-help": ("Help", "Support", "FAQ", "Guide", "Assistance", "Questions", "How-to"),
    # the flight search
    "search-heading": ("Find flights", "Flight search", "Search for flights", "Book a trip", "Plan a trip",
                       "Look for flights", "New booking"),
    "trip-type": ("Trip type", "Journey", "Itinerary type", "Trip", "Kind of trip", "Route type", "Travel type"),
    "trip-type-return": ("Return", "Round trip", "Return trip", "There and back", "Round-trip", "Two-way",
                         "Return journey"),
    "trip-type-oneway": ("One way", "One-way trip", "Single", "One-way", "Single journey", "Outbound only",
                         "One way only"),
    "search-from": ("From", "Origin", "Departing from", "Leaving from", "Flying from", "Departure airport",
                    "Origin airport"),
    "search-to": ("To", "Destination", "Arriving at", "Going to", "Flying to", "Arrival airport",
                  "Destination airport"),
    "search-depart": ("Departure date", "Outbound date", "Depart on", "Leaving on", "Flight date",
                      "Date of departure", "Outbound"),
    "search-return": ("Return date", "Inbound date", "Return on", "Coming back on", "Back on", "Date of return",
                      "Inbound"),
    "search-submit": ("Search flights", "Find flights", "Show flights", "Look up flights", "Search now",
                      "See flights", "Get flights"),
    # the results
    "results-heading": ("Search results", "Available flights", "Flights found", "Results", "Matching flights",
                        "Flight options", "Choose flights"),
    "outward-flight": ("Select your departing flight", "Choose your outbound flight", "Departing flights",
                       "Outbound options", "Pick a departing flight", "Outbound flights", "Flights out"),
    "return-flight": ("Select your return flight", "Choose your inbound flight", "Return flights",
                      "Inbound options", "Pick a return flight", "Inbound flights", "Flights back"),
    "fare": ("Fare", "Fare type", "Ticket type", "Fare family", "Price plan", "Fare class", "Ticket"),
    "results-back": ("Change search", "Edit search", "New search", "Back to search", "Modify search",
                     "Search again", "Refine search"),
    "checkout": ("Checkout", "Continue", "Proceed", "Continue to passenger", "Next", "Book these flights",
                 "Go to checkout"),
    # the passenger
    "passenger-heading": ("Passenger details", "Traveler information", "Passenger", "Traveller details",
                          "Who is flying", "Passenger information", "Traveler"),
    "passenger-title": ("Title", "Salutation", "Form of address", "Honorific", "Prefix"),
    "passenger-firstname": ("First name", "Given name", "Forename", "Given names", "First name (as on ID)",
                            "Personal name", "Name (first)"),
    "passenger-lastname": ("Last name", "Surname", "Family name", "Family names", "Last name (as on ID)",
                           "Family name (surname)", "Name (last)"),
    "passenger-email": ("Email address", "E-mail", "Email", "Contact email", "Email for the itinerary",
                        "Electronic mail", "Mail address"),
    "passenger-gender": ("Gender", "Sex"),
    "passenger-dob": ("Date of birth", "Birth date", "Born on", "Birthday", "DOB", "Date born", "Birthdate"),
    "passenger-next": ("Next", "Continue", "More details", "Go on", "Continue to step 2", "Next part", "Step 2"),
    "passenger-save": ("Save", "Save and continue", "Continue to payment", "Next step", "Confirm passenger",
                       "Save details", "Proceed to payment"),
    # the payment
    "payment-heading": ("Payment", "Pay", "Billing", "Payment details", "Card payment", "Checkout payment",
                        "Pay for trip"),
    "payment-card-number": ("Card number", "Credit card number", "Card no.", "Number on card",
                            "Payment card number", "Card digits", "Card"),
    "payment-expiry": ("Expiry", "Expiration date", "Valid until", "Expires", "Expiry date", "Good thru",
                       "Exp. date"),
    "payment-security-code": ("Security code", "CVV", "CVC", "Card verification code", "Security number",
                              "3-digit code", "CVV2"),
    "payment-name-on-card": ("Name on card", "Cardholder name", "Card holder", "Name as printed on card",
                             "Cardholder", "Card owner", "Printed name"),
    "book-flight": ("Book flight", "Confirm booking", "Pay and book", "Purchase", "Complete booking", "Book now",
                    "Buy ticket"),
    # the confirmation and the booking
    "confirmation-heading": ("Booking confirmed", "Reservation complete", "You're booked", "Confirmed",
                             "Booking complete", "Trip booked", "All set"),
    "code": ("Confirmation code", "Booking reference", "Reservation code", "Record locator", "Booking code",
             "Reference code", "Locator code"),
    "view-booking": ("View booking", "Open booking", "See booking", "Show reservation", "Go to booking",
                     "Booking details", "View trip"),
    "find-submit": ("Search", "Find", "Look up", "Retrieve", "Go", "Show booking", "Find reservation"),
    "booking-heading": ("Booking", "Reservation", "Trip", "Booking", "Reservation", "Trip", "Record"),
    "modify-booking": ("Modify booking", "Change booking", "Edit reservation", "Update trip", "Amend booking",
                       "Edit booking", "Make changes"),
    "cancel-booking": ("Cancel booking", "Cancel reservation", "Cancel trip", "Void booking",
                       "Cancel this booking", "Delete reservation", "Cancel"),
    "cancel-close": ("Close", "Back", "Keep booking", "Dismiss", "Never mind", "Go back", "Don't cancel"),
    "cancel-confirm": ("Confirm cancellation", "Yes, cancel", "Cancel it", "Confirm cancel",
                       "Proceed with cancellation", "Cancel booking now", "Yes, cancel booking"),
    "modify-passenger-save": ("Save", "Save changes", "Update passenger", "Save passenger", "Apply",
                              "Update details", "Save details"),
    "flights-heading": ("Flights", "Itinerary", "Your flights", "Flight plan", "Trip flights", "Segments",
                        "Journey"),
    "change-flights": ("Change flights", "Pick new flights", "Rebook", "Change dates", "Switch flights",
                       "New flights", "Change itinerary"),
    "save-flights": ("Save flights", "Confirm new flights", "Apply flight change", "Save new flights",
                     "Rebook now", "Keep these flights", "Confirm change"),
    "modify-back": ("Back to booking", "Return to booking", "Done", "Back", "Close editing", "Finish",
                    "Leave editing"),
    # the hard suite's flight status, next to a flight the airline disrupted (a delay adds "3 h 40 min")
    "flight-cancelled": ("Cancelled by the airline", "Canceled by the carrier", "Airline cancellation",
                         "Flight cancelled by airline", "Not operating", "Cancelled (airline)", "Called off by the airline"),
    "flight-delayed": ("Delayed", "Running late by", "Late by", "Delayed by", "Behind schedule by", "Delay of",
                       "Departing late by"),
    # the hard suite's booking search by name
    "booking-search-date": ("Travel date", "Date of travel", "Day of travel", "Trip date", "Flying on",
                            "Travel day", "Date flown"),
    "booking-search-submit": ("Search", "Find", "Look up", "Find bookings", "Go", "Search now", "Lookup"),
    "booking-search-match": ("Choose a booking", "Select a reservation", "Matching bookings", "Pick a booking",
                             "Bookings found", "Select booking", "Matches"),
    "booking-search-open": ("Open booking", "View booking", "Show booking", "Go to booking", "Open",
                            "See reservation", "Open reservation"),
    # the hard suite's transfer of the call to a supervisor
    "nav-transfer": ("Transfer to supervisor", "Escalate call", "Hand to supervisor", "Supervisor",
                     "Escalation", "Transfer call", "Call a supervisor"),
    "transfer-summary": ("Summary for the supervisor", "What the supervisor needs to know", "Call summary",
                         "Handover note", "Reason for transfer", "Notes for supervisor", "Summary"),
    "transfer-submit": ("Transfer the call", "Escalate", "Hand over", "Transfer", "Send to supervisor",
                        "Transfer now", "Escalate now"),
    "transfer-done": ("The call was transferred to a supervisor.", "Escalated to a supervisor.",
                      "Handed over to a supervisor.", "Transferred.", "A supervisor has the call.",
                      "Transfer complete.", "The call is with a supervisor."),
    # the hard suite's call panel: the call with the customer beside the screens
    "call": ("Call", "Live call", "Caller", "Phone call", "Current call", "Conversation", "On the line"),
    "call-log": ("Transcript", "Call transcript", "What was said", "Conversation so far", "Call log",
                 "Messages", "Dialogue"),
    "call-customer": ("Customer", "Caller", "Client", "Traveler", "Passenger", "Guest", "Customer on the line"),
    "call-you": ("You", "Agent", "Rep", "Me", "Representative", "Desk", "You (rep)"),
    "call-supervisor": ("To the supervisor", "Handover note", "Escalation note", "Transfer summary",
                        "Note for the supervisor", "Supervisor note", "Passed on"),
    "call-message": ("Message to the customer", "Say to the caller", "Your reply", "Message", "Reply to the customer",
                     "Type your answer", "What to say"),
    "call-send": ("Send", "Say it", "Reply", "Send message", "Submit", "Speak", "Send reply"),
    "call-end": ("End call", "Hang up", "Finish call", "Close call", "End conversation", "Disconnect", "Wrap up call"),
    "call-ended": ("The call has ended.", "Call finished.", "You hung up.", "The caller is gone.", "Call closed.",
                   "Conversation over.", "The line is closed."),
    "call-transferred": ("The call was transferred to a supervisor.", "Escalated; the call is over.",
                         "A supervisor has the call now.", "Transferred; the call is over.",
                         "The call went to a supervisor.", "Handed over; call closed.", "Passed to a supervisor."),
    "call-next": ("Next task", "Continue", "Next call", "Go on", "Next", "Take the next call", "Move on"),
    # the hard suite's fare upgrade on the Modify booking screen
    "upgrade-heading": ("Upgrade fare", "Raise fare family", "Fare upgrade", "Change fare type", "Upgrade ticket",
                        "Better fare", "Move to a higher fare"),
    "upgrade-fare": ("New fare", "Higher fare", "Upgrade to", "Target fare", "Fare after upgrade", "Raise to",
                     "New fare family"),
    "upgrade-quote": ("Quote upgrade", "Price the upgrade", "Show upgrade price", "What would it cost",
                      "Check upgrade price", "Get upgrade quote", "Calculate upgrade"),
    "upgrade-submit": ("Upgrade", "Confirm upgrade", "Apply upgrade", "Raise fare", "Upgrade now", "Save fare",
                       "Do the upgrade"),
}

# Controls that say the same words as another (the change panel's search is the home search's)
SAME_WORDS: dict[str, str] = {
    "trip-type-label": "trip-type",
    "change-from": "search-from", "change-to": "search-to", "change-depart": "search-depart",
    "change-return": "search-return", "change-search": "search-submit",
    "change-outward-flight": "outward-flight", "change-return-flight": "return-flight",
    "find-code": "code", "cancel-code": "code", "confirmation-code": "code",
    "booking-search-lastname": "passenger-lastname",
    "modify-heading": "modify-booking", "find-heading": "nav-find-booking", "help-heading": "nav-help",
    "policy-heading": "nav-policy", "kb-heading": "nav-kb", "transfer-heading": "nav-transfer", "call-heading": "call", "booking-search-heading": "nav-booking-search", "cancel-title": "cancel-booking",
    **{f"modify-passenger-{field}": f"passenger-{field}"
       for field in ("title", "firstname", "lastname", "email", "gender", "dob")},
}

# The words the page's scripts write themselves (flight lists, the booking matches)
SCRIPT_WORDS = ("outward-flight", "return-flight", "booking-search-match", "kb-result", "flight-cancelled", "flight-delayed")


@lru_cache(maxsize=None)
def words(number: int) -> dict[str, str]:
    """Variant `number`'s text of every key (SYNONYMS and SAME_WORDS); made once per variant (every page
    reads it), so a caller reads it and never changes it."""
    said = {key: choices[number % len(choices)] for key, choices in SYNONYMS.items()}
    return {**said, **{key: said[same] for key, same in SAME_WORDS.items()}}

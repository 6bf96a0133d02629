"""The words agents use, as data: how a rep asks for each kind of fact, asks for agreement, offers
a choice, reads back, closes the call, and asks what the customer cannot know. Every pattern is a
regular expression over one sentence in lower case, with markdown already taken out
(sentences.py). reading.py and choosing.py are the only readers of these tables; the customer's own
words are in simulator.py and facts.py."""
from __future__ import annotations

# How a rep asks for each fact the customer may hold (the kinds of facts.py).
FACT_WORDS: dict[str, tuple[str, ...]] = {
    "confirmation_code": (
        r"confirmation (code|number|#|id)", r"booking (reference|code|number|ref|id|locator)", r"record locator",
        r"\bpnr\b", r"reservation (code|number|id|#|reference|ref|locator)s?\b", r"\blocator\b",
        r"\breference (code|number)\b", r"\bbooking ref\b", r"six.(character|letter|digit) code", r"\bthe code\b",
        r"\byour code\b", r"\bcode\?", r"^code\b", r"\bconf(irmation)? ?(#|no\.?|num)",
        r"\b(which|what) (\w+ )?(reservation|booking)s?\b(?! (date|day|time))", r"\bres(ervation)? id\b",
        r"\bbooking ids?\b", r"\bticket (number|code)\b"),
    "date_of_birth": (
        r"date of birth", r"\bdob\b", r"\bd\.o\.b\b", r"\bbirth ?day\b", r"\bborn\b", r"\bbirth ?date\b",
        r"\bbirthdate\b"),
    "email": (r"(?<!confirmation )(?<!booking )\be-?mail\b(?! (confirmation|receipt|with|within))", r"\bmail address\b"),
    "first_name": (r"\bfirst name\b", r"\bgiven name\b", r"\bforename\b", r"\bfirst-name\b"),
    "last_name": (r"\blast name\b", r"\bsurname\b", r"\bfamily name\b", r"\blast-name\b"),
    "full_name": (
        r"\bfull name\b", r"\byour name\b", r"(?<!first )(?<!last )(?<!family )(?<!given )\bname on (the )?(booking|reservation|ticket|file)\b", r"^name\?$",
        r"\bname of the (lead |main |primary )?(passenger|travell?er)\b",
        r"\bfirst (\+|&|n|and) last( names?)?\b",
        r"\bpassenger'?s? (full )?name\b", r"\bwho (is|'s) (travell?ing|flying)\b", r"\bwho am i (speaking|talking)\b",
        r"\bwhom? am i (speaking|talking)\b", r"\bspell (your|the) name\b", r"\bfirst and last names?\b",
        r"\bname on (file|the account)\b", r"\bnames? of the (passenger|traveller|traveler)\b",
        r"\bwhich passenger\b", r"\bname (is|was) the (booking|reservation) (under|in)\b",
        r"\bname (the )?(booking|reservation) is (under|in)\b", r"\bunder what name\b", r"\bwhat name\b(?! .*\bcard\b)",
        r"\bwhat('s| is) the name\b(?! on the card)"),
    "title": (r"\btitle\b", r"\bmr\.?,? (or |/)?(mrs|ms)\b", r"\bhow should i address\b", r"\bsalutation\b",
              r"\bhonorific\b"),
    "gender": (r"\bgender\b", r"\bsex\b"),
    "travel_date": (
        r"\b(which|what) (new |other |later |preferred |exact |approximate )?(date|day)s?\b(?! of birth)",
        r"(?<!on the )(?<!for the )(?<!on your )(?<!for your )\bnew (travel |flight |departure )?(dates?|day)\b", r"\bwhen would you like\b", r"\bwhen do you (want|wish|need|plan)\b",
        r"\bdates? (you'?d|you would|would you) like\b", r"\bdate\b(?! of birth)[^.?!,]{0,20}?\b(fly|travel|leave|depart)",
        r"\bwhat day\b", r"\bwhen .*\b(fly|travel|leave|depart|go)\b", r"\b(fly|travel|leave|depart)(ing)? on\b(?!( the| your) new)",
        r"\b(travel|flight|departure|preferred|desired) date\b", r"\bdate in mind\b",
        r"\bdate of (the|your) (\w+ )?(flight|trip|travel)\b", r"\bwhen (is|was) (the|your) (flight|trip)\b",
        r"\bwhich day\b", r"\bwhat date\b", r"\bthe (exact|specific|approximate|new|original) (travel )?dates?\b(?! of birth)", r"\bdate\(s\)", r"\b(and|the|your|a) (travel )?dates?\b(?! of birth)(?! (of|for) (the|your) (booking|reservation))"),
    "departure_time": (
        r"\b(what|which) (departure )?times?\b", r"\btime of (the )?day\b", r"\bmorning,? (or|afternoon|evening)\b",
        r"\b(afternoon|evening|night) or (morning|afternoon|evening|night)\b",
        r"\b(preferred|preference for a|desired|ideal|particular|specific) (departure )?time\b",
        r"\bhow early\b", r"\bhow late\b", r"\bwhat time\b", r"\btime (do|would) you (want|like|prefer)\b",
        r"\b(roughly|around|about) when\b", r"\btime preference\b", r"\btime works\b", r"\bdeparture time\b",
        r"\btimes? (of|for) departure\b", r"\bwhen .*\b(leave|depart)\b.*\btime\b", r"\bearly or late\b",
        r"\b(date|day) (and|n|&|\+) (what )?time\b", r"\band the time\b", r"\btime you'?d like\b", r"\btime (would|will) work\b"),
    "card_number": (
        r"\bcard number\b", r"\bcredit card\b(?! ending)", r"\bdebit card\b", r"\bpayment (card|details|info)",
        r"\bcard details\b", r"\blong number on (the|your) card\b", r"\bpay with\b", r"\bhow (would|will|do) you (like to )?pay\b", r"\bhow (are )?you pay(ing)?\b",
        r"\bpayment method\b", r"\bform of payment\b", r"\bmethod of payment\b", r"\bcard info", r"\bcard #",
        r"\bcard (you|used|on file)\b", r"\b(last )?(four|4) digits\b"),
    "budget": (r"\bbudget\b", r"\bhow much (can|could|would|will) you (spend|pay|afford)\b",
               r"\bhow much (are you|would you be|you are|you're) (willing|able|prepared|looking) to (spend|pay)\b",
               r"\b(spending|price|cost) (limit|cap|ceiling)\b", r"\bprice range\b",
               r"\b(most|maximum|max) (you|that you) (can|could|would|are willing to|want to) (spend|pay)\b"),
    "card_expiry": (r"\bexpir", r"\bvalid (until|thru|through)\b", r"\bexp\.? date\b", r"\bexp\b"),
    "security_code": (
        r"\bsecurity code\b", r"\bcvv2?\b", r"\bcvc\b", r"\bcard verification\b", r"\bthree.digit code\b",
        r"\bcode on the back\b", r"\bcsc\b"),
    "name_on_card": (
        r"\bname (on|printed on|shown on|as it appears on) (the |your )?(credit |debit )?card\b", r"\bcard ?holder'?s? name\b",
        r"\bname of the card ?holder\b", r"\bwhat name .*\bcard\b", r"\bname appears on the card\b",
        r"\bname (exactly )?as (it'?s|it is|it appears) (printed |shown |written )?on the card\b"),
    "request": (
        r"\bhow (can|may|could) i (help|assist)\b", r"\bwhat can i (do|help you with)\b", r"\bwhat do you need\b",
        r"\breason for (your|the) call\b", r"\bwhat (is|'s) the (issue|problem)\b", r"\bwhy are you calling\b",
        r"\bwhat (would|do) you (like|want|need) (me )?to do\b", r"\bhow (would|do) you (like|want|wish) to proceed\b",
        r"\bhow you('d| would) like to proceed\b", r"\bwhat (specific )?changes? (would|do) you\b",
        r"\b(any|which|what) (specific |other )?changes?\b[^.?!]{0,40}\byou('d| would) like to make\b",
        r"\bwhat (would|do) you (like|want|wish) to (change|modify|update|do)\b",
        r"\bwhat (else )?(brings|brought) you\b", r"\bwhat (you'?d|you would) like to (change|do|modify)\b",
        r"\bwhat can i do for you\b", r"\bhow can i be of (help|assistance)\b", r"\bwhat (do|would) you have in mind\b",
        r"\bwhat (exactly )?(are you looking|do you want|would you like) (for|to)\b",
        r"\b(details|specifics) of (the|what|your) (change|new flight)", r"\bhow you would like to move forward\b",
        r"\bhow (would|do) you like to move forward\b", r"\bhow i can (help|assist)\b",
        r"\bwhat you('d| would) like (me )?to (do|update|change|modify|fix)\b", r"\bwhat can i help\b",
        r"\bhow (do|would) you (want|like|wish) to (handle|proceed|go about|approach)\b",
        r"\bwhat you('d| would) like (me )?to do\b", r"\bwhat (kind of )?(help|assistance) (do|would) you\b",
        # which of its bookings a caller of several means (the expert suite): it says its request again
        r"\bwhich (one of your |of your |of the )?(bookings?|reservations?)\b(?! (code|number))",
        r"\bwhich (one|booking|reservation) (do|did) you mean\b"),
    "claim": (  # what the caller claims of its booking (issue 35's TASK_FALSE_CLAIM)
        r"\bwhen did you (book|buy|purchase|make)\b", r"\bwhen (was|were) (it|the booking|the ticket|this|the reservation) "
        r"(booked|bought|made|purchased)\b", r"\b(which|what) (fare|ticket type|fare family|kind of (ticket|fare)) "
        r"(did you|do you|is it|was it|are you)\b", r"\bwhat makes you (think|say)\b", r"\bwhy do you (think|believe)\b"),
    "trip": (  # what the caller said in their request: where from and to, one-way or return, how many
        r"\bwhere (are|were|would|will) you (flying|travell?ing|going|headed|heading)\b", r"\b(origin|destination)\b",
        r"\bflying (from|to)\b\?", r"\bfrom which (city|airport)\b", r"\bto which (city|airport)\b",
        r"\bone.way or (a )?(round|return)", r"\b(round|return).trip or\b", r"\btrip type\b",
        r"\bhow many (passengers|people|travell?ers|seats)\b", r"\bdeparture (city|airport)\b",
        r"\barrival (city|airport)\b", r"\bwhere (to|from)\?"),
}

# Facts of other systems that the customer has never been given: asked, it says it does not have them.
NOT_HELD: dict[str, tuple[str, ...]] = {
    "a user ID": (r"\buser ?(id|name)\b", r"\buser identifier\b", r"\baccount (id|number|name)\b", r"\bprofile id\b",
                  r"\bcustomer (id|number)\b", r"\bmember(ship)? (id|number)\b"),
    "a frequent flyer number": (r"\bfrequent.fl(y|i)er\b", r"\bff (number|#|no)\b", r"\bloyalty\b", r"\bmileage\b", r"\brewards? (number|account)\b",
                                r"\bskymiles\b"),
    "a passport number": (r"\bpassport\b",),
    "a phone number": (r"\bphone\b", r"\bmobile number\b", r"\bcontact number\b", r"\btelephone\b"),
    "a home address": (r"\b(home|billing|mailing|postal) address\b", r"\bzip ?code\b", r"\bpostcode\b"),
    "a password or PIN": (r"\bpassword\b", r"\bpin\b", r"\bsecurity (question|answer)\b", r"\bpasscode\b"),
    "a gift card or certificate": (r"\bgift card\b", r"\bcertificate (id|number|code)\b", r"\bvoucher (code|number)\b",
                                   r"\btravel credit (id|code|number)\b"),
    "a ticket number": (r"\be-?ticket number\b", r"\bticket number\b"),
    "a known traveler number": (r"\bknown travell?er\b", r"\bredress\b", r"\bktn\b", r"\btsa precheck\b"),
}

# A sentence asks something (a question, or a request that the customer tell or do something).
ASKING = (r"\?", r"^which\b", r"\bwhich (one|option|flight)s?$", r"^(pick|choose|select) (one|an option|a flight)\b", r"\bplease (provide|share|tell|give|confirm|let me know|send|spell|specify|reply|respond|choose|select|"
          r"pick|state|read|verify|advise|indicate|clarify|say|note down|enter|type|repeat)\b",
          r"\b(could|can|would|will) you\b", r"\bwould you mind\b", r"\bmay i (have|get|ask|know|take|confirm|grab)\b",
          r"\bcan i (have|get|grab|take|ask|confirm)\b",
          r"\b(i|we)('ll| will| would|'d)?( still| also| just| first| now)? need (your|the|you to|to (know|have|get|confirm|verify))\b",
          r"\bneed\b[^.?!]*:", r"\blet me know\b", r"(^|\bplease |\b(can|could|would|will) you (please )?|, )tell me\b", r"^(i )?need\b", r"^(please )?(provide|share|give|confirm|verify|spell|send) (your|the|me|us|it|that|this)\b",
          r"\b(two|three|a few|a couple of) (quick )?(things|details|questions)\b",
          r"\b(kindly|just) (provide|share|confirm|let me know|tell|give)\b",
          r"\bi('d| would) (need|like) (to (know|have|get|confirm)|your)\b", r"\b(reply|respond|answer) (with|by)\b",
          r"\bplease\b.*\b(yes|no)\b", r"\bif you (could|can) (provide|share|tell|give|confirm)\b", r"\bwhat about\b",
          r"\bgo ahead and (share|provide|tell|give)\b", r"\bi('ll| will) need\b", r"\bneed (you|from you)\b",
          r"\blooking for (your|the)\b", r"\bif you (have|know|remember|recall|can find) (the|your)\b",
          r"\bdo you (remember|recall|know|have)\b", r",? please[.!]?$",
          r"^((also|and|so|now|next|then|ok|okay)\b[ ,-]*)?(what|what's|which|when|where|who|how)\b",
          r"\w \w.*(?<!all )\b(right|correct|yes)$")

# "Please give me a moment": said while the rep works, it asks nothing.
STALLING = (r"\b(give me|bear with me|hold on|wait|allow me|one) (just |only )?(a |one )?(moment|minute|second|sec|mo)\b",
            r"\bhold (the line|please)\b")
# Facts the rep says it already has are not asked ("Nothing else: I already have your booking reference").
ALREADY_GIVEN = (r"\b(already|now) (have|got)\b", r"\bthanks? (you )?for (providing|sharing|confirming|giving)\b")
# "Could you share both?": a request whose object is what the sentence before it named.
PRONOUN_OBJECT = r"\b(both|them|those|these|yours|that information|those details|these details|it)\b"
SHORTHAND = {"pls": "please", "plz": "please", "u": "you", "ur": "your", "thx": "thanks", "wat": "what", "wats": "what's",
             "whats": "what's", "fname": "first name", "lname": "last name", "n": "and", "r": "are", "yr": "your"}
# In a yes/no question or a pick, a fact is asked only in so many words ("... and could you give me
# your email?"); "Would you like to update your email?" asks none.
GIVE_REQUEST = (r"\b(provide|share|give|tell me|specify|send me|let me (know|have)|spell)\b",)  # asks to be told
EXPLICIT_REQUEST = (*GIVE_REQUEST, r"\bwhat('s| is| are)\b",
                    r"\b(may|can|could) i (have|get|take)\b", r"\bconfirm (your|the)\b(?! (change|cancellation|booking))")

# A yes/no question about carrying out an action or accepting terms: agreement is asked even when
# the same sentence asks a fact ("Would you like to proceed, and which card should I use?").
# A condition on going ahead ("..., if you'd like to proceed with that"): agreement asked, unless the
# line leaves the next step open ("let me know how you'd like to proceed": reading._open_next_step).
IF_PROCEEDING = r"\bif you('d| would)? (like|want|wish) (me )?to (proceed|go ahead|continue)\b"
CONSENT = (
    r"\bshall i\b", r"\bshould i\b", r"\bmay i (go ahead|proceed|cancel|change|make|book|move|update|process|submit|"
    r"finali[sz]e|complete)\b", r"\bwould you like me to\b", r"\b(do|would) you want me to\b", r"\bwant me to\b",
    r"\b(do|would) you (still )?(want|wish|like) to (proceed|go ahead|continue|cancel|change|book|move|make|complete|"
    r"finali[sz]e|use|add|go with|keep|accept|take|modify|update|rebook|revisit|explore|upgrade|speak|talk|be transferred)\b",
    r"\bare you (ok|okay|happy|fine|good|comfortable|alright|all right) with\b",
    r"\b(is|would) (that|this|it) (be )?(ok|okay|alright|all right|fine|acceptable|agreeable)\b",
    r"\b(does|would|will) (that|this|it) (work|suit)\b", r"\bsounds? (good|ok|okay|fine)\?",
    r"\bdo i have your (permission|consent|approval|authori[sz]ation|go.ahead|ok|okay)\b",
    r"\b(reply|respond|answer|say|type|confirm|write)( with| by (saying|replying|typing))?:? [\"'“‘]?yes\b",
    r"\bby (saying|replying|typing|answering) [\"'“‘]?yes\b", r"\b(explicit|clear) [\"'“‘]?yes\b",
    r"\bdo you (confirm|agree|accept|approve|authori[sz]e|consent)\b", r"\bready (for me )?to (proceed|go ahead|book|cancel)\b",
    r"\b(go ahead|proceed|continue)\?", r"\blet me know if you('d| would) like (me )?to\b",
    IF_PROCEEDING,
    r"\b(ok|okay|alright|all right|good) (for me )?to (proceed|go ahead|book|cancel|change|move)\b",
    r"\bcan i (go ahead|proceed)\b", r"\bis it (ok|okay|alright|all right|fine) (if|to|for me to)\b", r"\ball good\?",
    r"\bagreed\?", r"\bdeal\?", r"\bhappy (for me )?to (proceed|go ahead)\b", r"\bgive me the go.ahead\b",
    r"\bi('ll| will| can) (proceed|go ahead|finali[sz]e)\b.*\b(if|once|when) you (confirm|agree|say|give (me )?(the |your )?"
    r"(go.ahead|ok|okay|approval|consent|permission))\b",
    r"\bshould we\b", r"\bshall we\b", r"\bdo you want (this|that|the|these) (change|cancellation|booking|changes)\b",
    r"\bwith your (permission|consent|approval)\b.*\?",
    r"\bwould you like (this|that|the|these) (change|cancellation|booking|changes)\b", r"\bare we good\b",
    r"\b(can|could|please) (you )?confirm (that |if |whether )?you('d| would)? (like|want|wish|agree)\b",
    r"\bconfirm (that |if |whether )?(you('d| would)? (like|want|wish) to|i (should|can|may)) "
    r"(proceed|go ahead|continue|cancel|change|book|move)\b",
    r"\b(please|can you|could you|will you|would you) confirm (the|this|these|that) (change|cancellation|booking|"
    r"changes|update|upgrade)s?\b",
    r"\bgo.ahead\b.*\?", r"\bok(ay)? with (you|that|this)\?", r"\bwork for you\?",
    r"\binterested\b.*\?", r"\bcan i (interest|offer|get) you\b", r"\bwould you (accept|take)\b",
    r"^(?!(why|what|how|when|where|which|who|whose|reason|just|to|so)\b)(\w+ ){0,2}?(cancel|book|move|change|rebook|"
    r"reschedule|proceed|go ahead)\b[^.?!]*\?$",
    r"\b(ok|okay|alright|good|fine)\?$", r"\bare you (ok|okay|happy|fine|good|comfortable|alright) (for me )?to\b",
    r"\bare you sure\b", r"^(ok|okay|alright|all right) (to|if)\b.*\?$", r"\b(ok|okay|alright) (for me )?to (charge|use|bill|apply)\b",
    r"\bwould you (also )?(like|want|need) (a|an|the|some|any|travel|our|extra|that|this|it|to add)\b",
    r"\b(do|would) you (also |still )?(like|want|wish|need) to \w+",
    r"^(and |also,? |so,? )?(do|would) you (like|want|need)\b", r"\bwould you prefer\b(?!.*\bor\b)",
    r"^(\w+ )?(\w+ )?(\$\d+|insurance|bags?|upgrade|transfer)\b.*\?$",
)
# Of those, the ones that offer something: without its own request named, the customer says no.
OFFER_QUESTIONS = (r"\b(would|do) you (like|want|need)\b(?! me to (proceed|go ahead|continue))", r"\binterested\b",
                   r"\b(would you like|do you want|want) me to\b(?! (proceed|go ahead|continue|finali[sz]e|complete|process))",
                   r"\bcan i (interest|offer|get) you\b", r"\bwould you (accept|take|prefer)\b")
# Agreement asked by asking to confirm: heard only when the sentence asks no fact ("Please confirm
# your date of birth" asks a fact).
CONFIRMING = (r"\bplease confirm\b", r"\b(can|could|will|would) you (please )?confirm\b", r"\bconfirm (that|if|whether)\b",
              r"\bconfirm (everything|all|the details|these details)\b", r"^confirm\b", r"\bconfirm\?$")
# An offer to put the caller through to a supervisor (said yes to by a caller who wants one: will.py).
SUPERVISOR_OFFER = (r"\btransfer", r"\bsupervisor\b", r"\bmanager\b", r"\bput you through\b", r"\bconnect you\b")
# Agreement to terms: the rules, fees or price of what the customer asked for.
TERMS = (r"\b(rules|terms|conditions|fees?|price|cost|total|amount|charge|penalty)\b",)
GOING_AHEAD = (r"\b(proceed|go ahead|continue|finali[sz]e|process|complete)\b",)
# The action asked about is an offer of something the customer did not call for: it says no.
OFFERS = (
    r"\btransfer", r"\bhuman\b", r"\bsupervisor\b", r"\brepresentative\b", r"\bspecialist\b", r"\bmanager\b",
    r"\binsurance\b", r"\b(checked |extra |additional )?(bags?|baggage|luggage)\b", r"\b(an)?other options?\b",
    r"\balternatives?\b", r"\binstead\b", r"\bexplore\b", r"\bnew (booking|reservation)\b", r"\bseat (selection|upgrade)\b",
    r"\bdifferent (date|day|flight|route|airport)\b", r"\bwait ?list\b", r"\bnewsletter\b", r"\bsurvey\b",
    r"\bcall you back\b", r"\bcallback\b", r"\bone.stop\b", r"\bsearch (for )?(other|more|another)\b",
    r"\blook (for|at|into) (other|another|more|different)\b", r"\bhotel\b", r"\bcar rental\b", r"\bpriority boarding\b",
    r"\blounge\b", r"\bwi-?fi\b", r"\bmeal\b", r"\brevisit\b", r"\badd(-on|-ons|ing)?\b", r"\bupgrad",
    r"\btake advantage\b", r"\bvoucher\b", r"\bprotection\b", r"\blegroom\b", r"\bconnect you\b",
    r"\bhand (you )?over\b", r"\b(desk|department)\b", r"\blive agent\b", r"\bprogram\b", r"\bcall (us )?back\b",
    r"\brather than\b", r"\bkeep (your|the|this) (booking|original|flight|reservation)\b", r"\breturn (flight|trip)\b",
    r"\bround.trip\b", r"\bpremium\b", r"\b(first|business) class\b", r"\bfor an extra\b", r"\bnotifications?\b",
    r"\bpaperless\b", r"\bsubscri", r"\balerts?\b", r"\bwaive\b.*\binstead\b", r"\bsign (you )?up\b",
    r"\bnewsletter\b", r"\bmembership\b", r"\bcredit card offer\b",
)
# The kinds of action a customer calls for: agreement to one its request names is agreement to the request.
ACTION_FAMILIES = {"change": (r"\bchang", r"\bmov(e|ing)\b", r"\bmodif", r"\bupdat", r"\brebook", r"\breschedul",
                              r"\bswitch", r"\blater (day|date|flight)\b"),
                   "cancel": (r"\bcancel", r"\brefund"),
                   "book": (r"\bbook\b", r"\bbooking (it|this|that|the flight|you)\b", r"\breserv(e|ing)\b",
                            r"\bpurchas", r"\bbuy")}

# A pick between actions asked as a yes/no question ("Shall I keep the booking or move you?"): the words
# that lead into each action, then the verbs of going ahead with what was prepared, of leaving things
# as they are, and of offering something else.
ACTION_LEADS = (
    r"^(?:.*?\b)?(?:shall|should|can|may) (?:i|we) ", r"^(?:.*?\b)?(?:do|would) you (?:still )?(?:want|like|wish|need) (?:me |us )?to ",
    r"^(?:.*?\b)?would you (?:rather|prefer)(?: that| for)?(?: (?:i|we|me to|us to|to))? ", r"^(?:.*?\b)?want me to ",
    r"^(?:.*?\b)?you(?:'d| would) (?:like|want|rather|prefer)(?: me| that i| i)? (?:to )?")
CARRYING_ON = (r"\b(charge|bill|pay|put|use|apply|proceed|go ahead|continue|process|finali[sz]e|complete)\b",)
AS_IT_IS = (r"^(keep|leave|hold|stay|remain)\b",)
OFFERING_VERBS = (r"^(add|upgrade|look|search|explore|transfer|connect|check|find|try|wait|consider|send|issue)\b",)

# A pick among the options the rep offers: "which ..." is a pick, never a yes/no question.
CHOICE = (
    r"\bwhich (\w+ )?(one|ones|option|options|flight|flights|of (the|these|them|those|your)|fare|passenger|itinerary|"
    r"card|payment|method|would|do|works|suits|is|are)\b", r"\bwould you (rather|prefer)\b.*\bor\b",
    r"\bdo you prefer\b", r"\bprefer(ence)? (one of|between|the)\b", r"\b(first|1st) (one )?or (the )?(second|2nd|other)\b",
    r"\boption ([a-d1-9]) or\b", r"\b(choose|pick|select) (one|between|from|an? option|which)\b", r"\bwhich works\b",
    r"\bwhich suits\b", r"\b(let me know|tell me) which\b", r"\bwhat option\b", r"\byour (choice|preference|pick)\b",
    r"\bwhich would you\b", r"\b(works|suits) (best|better)\b", r"\b(the )?(correct|right) one\b", r"\bwhich\b",
    r"\bwhose\b", r"^(pick|choose|select) (one|an option)\b", r"\b(either|any|one) of (these|those|them)\b",
    # an open question about the flight, naming none: answered with the flight the customer wants
    r"\bwhat (\w+ )?(flight|departure)s?\b", r"\b(particular|specific|certain|preferred) (flight|departure)s?\b",
    r"\b(flight|departure) in mind\b",
)
# A yes/no question whose "or" offers alternatives in the same clause ("Would you like to change or
# cancel it?") is a pick as well; an "or" that opens another question ("or would you ...") is not.
ALTERNATIVES = (r"\bor\b(?! (would|do|did|are|is|if|should|shall|can|could|will|not|no|anything|something|have|has|"
                r"perhaps|maybe|else|otherwise|i|we|you|not|let|tell)\b)"
                r"(?! (need|want|require) (any |some )?(further|more|other|additional|extra)? ?(help|assistance|support)\b)",)
WEAK_CHOICE = (r"\beither\b.*\bor\b.*\?", r"\bor\b[^.?!]*\?$", r"\w/\w.*\?$")

# A question that asks the customer to say again what it meant: the customer asks what is needed.
REPAIR_CUES = (r"\bagain\?$", r"\bpardon\b", r"\bcome again\b", r"\bwhat do you mean\b", r"\bclarify\b",
               r"\bwhat (was|were) (that|it)\b", r"\bsay that again\b", r"\bwhich (one )?was it\b", r"\bthe thing\b",
               r"\b(uh|um|erm)\b")

# The rep reads details back and asks whether they are right.
READ_BACK = (
    r"\bcorrect\b", r"\bright\?", r"\bright\b\s*$", r"\bis (that|this|it) (right|accurate|ok|okay)\b", r"\bconfirm\b",
    r"\bjust to (confirm|check|make sure|verify|be sure|double.check)\b", r"\bso (that's|that is|your|you|it's|it is|the)\b",
    r"\bdid i (get|hear|catch)\b", r"\bhave i got\b", r"\b(let me|i'll|i will) (read|repeat)\b", r"\byou said\b",
    r"(?<!can )(?<!may )(?<!could )\bi have (your|the|it|you)\b", r"\bdouble.check\b", r"\bverify\b", r"\bthat's\b.*\?", r"\bmatch", r"\baccurate\b",
    r"\bto be sure\b", r"\bam i right\b", r"^is (that|this|it)\b", r"\bspell(ing|ed)\b", r"\byes\?$", r"\bcorrect me\b",
    r"\bis (this|that|it) (the|your)\b", r"\bjust checking\b", r"\bconfirming\b", r"\b(both|all)( of (that|those|them))? "
    r"(right|correct|good)\b", r"\bstill (current|valid|good|the same)\b", r"\bi('ve| have) got\b", r"\bdown (for|as)\b",
)
# The rep turns the request down (the customer with a will of its own insists: will.py).
REFUSAL = (r"\b(can't|cannot|can not|unable to|not able to|won't be able to|am not able to)\b",
           r"\b(isn't|is not|aren't|are not|not) (possible|allowed|permitted|eligible|changeable|refundable|cancellable)\b",
           r"\b(doesn't|does not|don't|do not) (allow|permit)\b", r"\bno way to\b", r"\bhave to decline\b",
           r"\b(policy|rules?) (prevents?|forbids?|prohibits?)\b", r"\bnot (be )?able to (change|cancel|refund|move)\b")
NOT_A_REFUSAL = (r"\b(can't|cannot|unable to|not able to) (find|locate|see|hear|access|pull up|read)\b",
                 r"\bif you can't\b", r"\byou can't\b.*\bdon't worry\b")

# The rep is closing the call: asking whether there is anything else, or saying goodbye.
FAREWELL = (r"\bhave a (great|good|nice|wonderful|lovely|safe|pleasant)\b", r"\bsafe travels\b", r"\bthanks? (you )?for calling\b",
            r"\btake care\b", r"\bgood ?bye\b", r"\bbye\b", r"\benjoy your (trip|flight)\b", r"\byou're all set\b")
CLOSING = (r"\banything else\b", r"\bsomething else\b", r"\bhelp you with anything\b", r"\bany (other|further|more) "
           r"(questions?|requests?|concerns?|help|assistance|issues?|needs?)\b", r"\b(further|more|other) (assistance|help)\b",
           r"\bother (changes|requests|matters)\b", r"\banything more\b", r"\bother way i can\b")

# Questions the customer holds no fact for, each with a fixed answer that changes nothing: the first
# entry whose words a sentence holds answers it.
REASON_ANSWER = 1  # the entry of FIXED_ANSWERS that answers a reason
FIXED_ANSWERS: tuple[tuple[tuple[str, ...], str], ...] = (
    ((r"\b(anyone|anybody|someone|somebody) (else )?(be |is |will be )?(travell?ing|flying|coming) with you\b",
      r"\btravell?ing alone\b", r"\bjust (you|yourself)\b", r"\bhow many (passengers|people|travell?ers|adults)\b",
      r"\bany(one)? other (passengers|travell?ers)\b"), "Just me."),
    ((r"\breasons?\b", r"\bwhy\b", r"\bcause\b", r"\bchange of plans?\b", r"\bdue to\b", r"\bwhat('s| has)? happened\b",
      r"\bmotivat", r"\bprompt(ing|ed)\b", r"\bpurpose\b", r"\bwhat brings\b", r"\bbusiness or (leisure|pleasure)\b"),
     "My plans changed."),
    ((r"\b(done|do) better\b", r"\bfeedback\b", r"\bhow (was|is) your experience\b", r"\brate\b", r"\bsatisf"),
     "No, it's fine, thank you."),
    ((r"\bseat(ing)?\b", r"\baisle\b", r"\bwindow\b", r"\bmeals?\b", r"\bdiet", r"\bcabin\b", r"\bclass\b",
      r"\bspecial (assistance|requests?|needs)\b", r"\bwheelchair\b", r"\bpreferences?\b", r"\bnon.?stop\b",
      r"\blayovers?\b", r"\bconnections?\b", r"\bstops?\b", r"\bairline\b", r"\bbudget\b", r"\bprice range\b",
      r"\bbags?\b", r"\bbaggage\b", r"\bluggage\b", r"\bpets?\b", r"\binfants?\b", r"\bassistance\b"),
     "No preference, thank you."),
)

# A caller with a budget (TASK_UPGRADE_TO_CHANGE: will.py): the amounts a line names, and the words
# of the fare upgrade it agrees to as the way to its own change.
AMOUNTS = (r"\$\s?(\d[\d,]*(?:\.\d{1,2})?)", r"\b(\d[\d,]*\.\d{2})\b", r"\b(\d[\d,]*(?:\.\d{1,2})?) ?(?:dollars|usd)\b",
           r"\busd ?(\d[\d,]*(?:\.\d{1,2})?)")
FARE_UPGRADE = (r"\bupgrad", r"\b(raise|raising|move|moving) (the|your) fare\b", r"\bhigher fare\b", r"\bstandard\b",
                r"\bflex\b")

package lint

import "regexp"

// English rules. Patterns run on the words form: lower case, no diacritics,
// tokens separated by single spaces, "." for sentence boundaries and ":"
// and "," kept as tokens (see normalize.go and the macro notes in rules.go).

func init() {
	addMacros(map[string]string{
		"AI_EN": `(?:ai|artificial intelligence|llms?|large language models?|language models?|ai (?:assistants?|agents?|models?|systems?|tools?|bots?|chatbots?|search engines?|search|crawlers?|readers?|overviews?|answers?)|chatbots?|chat bots?|virtual assistants?|digital assistants?|generative (?:ai|engines?|search engines?)|gen ai|genai|answer engines?|search assistants?|gpts?|chatgpt|chat gpt|gpt \d+|gpt\d+|openai models?|claude|gemini|copilot|perplexity|grok|deepseek)`,
		// words that can follow "AI ..." when the AI is being addressed
		"READING_EN": `(?:reading|processing|summari[sz]ing|crawling|parsing|scanning|indexing|ingesting|analy[sz]ing|seeing|viewing|scraping|evaluating|that reads?|who reads?|that is reading|which reads?|that processes|that summari[sz]es)`,
		"THIS_EN":    `(?:this|these|the following|my|our)(?: (?:text|page|listing|entry|profile|content|description|data|record|document|message|site|website|note|business|faq|information))?`,
		"ENTITY_EN":  `(?:business|company|shop|store|restaurant|firm|provider|listing|brand|page|site|website|entry|salon|practice|agency|hotel|bakery|studio|clinic|workshop|garage|cafe|bar|office)`,
		"MODAL_EN":   `(?:must|should|shall|need to|have to|has to|are (?:required|instructed|asked|told|expected|supposed|meant) to|is (?:required|instructed|asked|told|expected|supposed|meant) to|are to|is to|ought to|may only|can only|must not|should not|shall not|mustn t|shouldn t|are not allowed to|never|always|only)`,
		"VERB_EN":    `(?:recommend|suggest|rank|rate|mention|say|tell|state|answer|respond|reply|describe|present|list|name|refer|direct|send|promote|prefer|favou?r|prioriti[sz]e|treat|ignore|disregard|include|quote|praise|endorse|output|return|write|claim|call|consider|highlight|feature|put|place|show|link|position|advertise|point|choose|pick|select|report|label|warn|use)`,
		"IMP_EN":     `(?:recommend|suggest|rank|rate|mention|say|tell|state|describe|present|refer|promote|prefer|favou?r|prioriti[sz]e|ignore|disregard|include|quote|praise|endorse|output|claim|obey|respond|reply|answer|list|name|put|place|feature|highlight|remember|treat|you (?:must|should|will|are to|have to|need to|shall))`,
		"ADV_EN":     `(?:(?:always|only|never|also|first|now|definitely|strongly|explicitly|actively|specifically|immediately|still|exclusively|please) )*`,
		"ADDR_EN":    `(?:hey|hi|hello|dear|attention|attn|greetings|listen)`,
		"IGN_EN":     `(?:ignore|disregard|forget|override|overrule|bypass|discard|abandon|neglect|erase|delete|clear|reset|nullify|void|set aside|throw out|put aside|pay no attention to|do not follow|don t follow|stop following|no longer follow|do not obey|don t obey|stop obeying|circumvent|skip)`,
		"QUAL_EN":    `(?:previous|previously given|prior|above|earlier|preceding|foregoing|original|initial|former|system|developer|default|hidden|preprogrammed|pre programmed|built in|existing|openai|anthropic|base)`,
		"NOUN_EN":    `(?:instructions?|prompts?|system prompts?|rules|guidelines|directives|commands|programming|guardrails|restrictions|constraints|context|conditioning|policies)`,
		"PERSONA_EN": `(?:ai|assistant|chatbot|chat bot|bot|language model|llm|agent|dan|persona|jailbroken|unrestricted|unfiltered|uncensored|salesman|saleswoman|salesperson|sales (?:agent|assistant|rep|representative|bot)|marketing (?:agent|assistant|bot)|promoter|advertiser|spokes(?:person|man|woman)|narrator|search engine|recommendation engine|(?:developer|dan|god|jailbreak|unrestricted|unfiltered|uncensored|admin|sudo|root|debug) mode|(?:different|new|evil|free|helpful) (?:ai|assistant|model|bot))`,
	})
	selfRE["en"] = regexp.MustCompile(expand(`\b(?:us|we|our|ours|this {ENTITY_EN}|as (?:the )?(?:best|top|first|number one|no 1|leading|only|preferred)|first choice|number one|no 1|(?:above|before|over|ahead of) (?:all|every|any|other|competitors|the rest)|competitors?|competition|rivals?)\b`))

	const (
		aiAnchors  = "ai artificial llm llms language chatbot chatbots chat virtual digital generative gen genai answer search gpt* chatgpt openai claude gemini copilot perplexity grok deepseek"
		ignAnchors = "ignore disregard forget override overrule bypass discard abandon neglect erase delete clear reset nullify void set throw put pay do don stop no circumvent skip"
	)

	register(
		// ---- override: ignore / forget previous or system instructions ----
		spec{id: ruleOverride, lang: "en", anchors: ignAnchors + " & previous previously prior above earlier preceding foregoing original initial former system developer default hidden preprogrammed pre built existing openai anthropic base",
			pat: `\b{IGN_EN} (?:(?:all|any|every|each|of|the|your|my|these|those|its|their|and) )*{QUAL_EN}(?: (?:and|or) (?:{QUAL_EN}|following|subsequent|future|later))?(?: [\pL\pN]+)? {NOUN_EN}\b`},
		spec{id: ruleOverride, lang: "en", anchors: ignAnchors + " & above before given you from",
			pat: `\b{IGN_EN} (?:(?:all|any|every|the|your|these|those) )*{NOUN_EN} (?:above|before this|given (?:to you )?(?:before|earlier|previously|above)|you (?:were|have been|ve been) given|you received|you were told|from (?:before|earlier|above|your (?:developers?|creators?|operators?|system|programmers?)))\b`},
		spec{id: ruleOverride, lang: "en", anchors: ignAnchors + " & instruction instructions prompt prompts directives programming guardrails system",
			pat: `\b{IGN_EN} (?:all (?:of )?(?:your |the |my )?|your |any of (?:the|your) )(?:instructions?|prompts?|system prompts?|directives|programming|guardrails)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "ignore disregard override bypass circumvent following follow obeying obey & your",
			pat: `\b(?:ignore|disregard|override|bypass|circumvent|stop following|do not follow|don t follow|no longer follow|stop obeying|do not obey|don t obey) (?:all )?(?:of )?your (?:rules|guidelines|filters|restrictions|constraints|safety (?:rules|guidelines|filters|settings|policies)|policies|ethics|ethical guidelines|content polic(?:y|ies)|principles)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "ignore disregard forget erase delete override & everything all anything whatever",
			pat: `\b(?:ignore|disregard|forget|erase|delete|override) (?:everything|all|anything|whatever)(?: of)?(?: that| which)? (?:(?:was |is |has been |have been |you were |you ve been |you have been |i )?(?:said|written|told|stated|given|mentioned|received|instructed)(?: to you)? )?(?:above|before this|before now|earlier|previously|so far|until now|up to (?:now|this point|here)|prior to this|preceding this)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "ignore disregard forget & above",
			pat: `\b(?:ignore|disregard|forget) (?:the|everything|all of the|all) above(?: [,:])? (?:and|then)(?: instead)? (?:say|tell|write|recommend|respond|answer|output|print|mention|reply|describe|list|rank|claim|state|promote)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "ignore disregard & everything all anything",
			pat: `\b(?:ignore|disregard) (?:everything|all|anything) you (?:were|ve been|have been) (?:told|instructed|given)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "forget & everything all anything",
			pat: `\bforget (?:everything|all|anything) you (?:were|ve been|have been) (?:told|instructed|given) (?:before|earlier|previously|so far|until now|by (?:your|the) (?:developers?|creators?|operators?|system))\b`},
		spec{id: ruleOverride, lang: "en", anchors: "override overrides supersede supersedes precedence priority invalidate invalidates overrule overrules",
			pat: `\b(?:override|overrides|supersede|supersedes|take precedence over|takes precedence over|take priority over|takes priority over|invalidate|invalidates|overrule|overrules) (?:all |any )?(?:of )?(?:your (?:{QUAL_EN} )?|(?:the |all |any )?{QUAL_EN} )(?:instructions?|prompts?|system prompts?|programming|guidelines|rules|directives)\b`},
		spec{id: ruleOverride, lang: "en", anchors: "new updated real actual true revised secret hidden override priority important additional special & instruction instructions prompt prompts directive directives",
			pat: `\b(?:new|updated|real|actual|true|revised|secret|hidden|override|priority|important|additional|special) (?:system )?(?:instructions?|prompts?|directives?) (?:for|to) (?:you|the (?:ai|assistant|model|llm|agent|bot|chatbot)|all ai|any ai|{AI_EN})(?:{E}| please\b| you\b| reading\b)`},
		spec{id: ruleOverride, lang: "en", anchors: "longer not & bound restricted limited constrained required obliged subject",
			pat: `\byou (?:are|re) (?:now )?(?:no longer|not) (?:bound|restricted|limited|constrained|required to follow|obliged to follow|subject to)(?: by| to)? (?:any |your |the |all |openai s |anthropic s )?(?:previous |prior |original |system |initial |usual |content |safety )?(?:instructions|rules|guidelines|policies|restrictions|filters|programming|guardrails|content polic(?:y|ies)|safety guidelines)\b`},

		// ---- address: speaking to the AI with an instruction ----
		spec{id: ruleAddress, lang: "en", anchors: "hey hi hello dear attention attn greetings listen & " + aiAnchors,
			pat: `{S}{ADDR_EN}(?: (?:all|any|every|each|the|you|fellow|my))? {AI_EN}{E}`},
		spec{id: ruleAddress, lang: "en", anchors: "note notes message memo instruction instructions directive notice psa reminder request warning hint information info & " + aiAnchors,
			pat: `{S}(?:(?:an?|this|the|important|special|quick|hidden|secret) )?(?:note|notes|message|memo|instructions?|directive|notice|psa|reminder|request|warning|hint|information|info)(?: is)? (?:to|for) (?:all |any |every |each |the |you )?{AI_EN}(?: {READING_EN} {THIS_EN})?{E}`},
		spec{id: ruleAddress, lang: "en", anchors: "to for & " + aiAnchors,
			pat: `{S}(?:to|for) (?:all |any |every |each )?{AI_EN}(?: only)? :`},
		spec{id: ruleAddress, lang: "en", anchors: "reading processing summarizing summarising crawling parsing scanning indexing ingesting analyzing analysing seeing viewing scraping evaluating that who which & " + aiAnchors,
			pat: `\b{AI_EN} {READING_EN} {THIS_EN}\b`, guard: notAfter("our", "my", "your", "their")},
		spec{id: ruleAddress, lang: "en", anchors: "you & " + aiAnchors,
			pat: `\b(?:if|when|since|because|as long as|in case) you (?:are|re) (?:an? |the |any |one of the )?{AI_EN}(?: {READING_EN}|{E}| (?:then|please|you|and|or|tasked|asked|answering|that|who|looking|evaluating|comparing|recommending|summari[sz]ing|processing|reading|helping)\b)`},
		spec{id: ruleAddress, lang: "en", anchors: "as & " + aiAnchors,
			pat: `{S}as an? {AI_EN}_(?:you|please|always|never|only|recommend|mention|say|tell|respond|answer|reply|ignore|list|rank|describe|present|make sure|remember|it is your|your)\b`},
		spec{id: ruleAddress, lang: "en", anchors: "must should shall need have has are is ought may can mustn shouldn never always only & " + aiAnchors,
			pat:   `{S}(?:{ADDR_EN} )?(?:(?:all|any|every|each|other|most) )?{AI_EN}(?: {READING_EN} {THIS_EN})?_(?:please )?{MODAL_EN} {ADV_EN}{VERB_EN}\b`,
			guard: nearSelf("en")},
		spec{id: ruleAddress, lang: "en", anchors: ", : & " + aiAnchors,
			pat: `{S}(?:{ADDR_EN} )?(?:(?:all|any|every|each) )?{AI_EN}(?: {READING_EN} {THIS_EN})? [,:] (?:please )?{ADV_EN}(?:do not |don t |never )?{IMP_EN}\b`},
		spec{id: ruleAddress, lang: "en", anchors: "tell convince persuade assure inform & user users human humans person people",
			pat:   `\b(?:tell|convince|persuade|assure|inform) (?:the |any |all |every )?(?:users?|end users?|person asking|people asking|human|the human)(?: that| about)?\b`,
			guard: all(notAfter(subjects...), notBefore("interface", "manual", "guide", "experience", "account", "accounts", "name", "id", "group", "groups", "base", "research", "story", "stories", "journey", "resources", "rights", "error", "errors", "beings"))},

		// ---- persona / role hijack ----
		spec{id: rulePersona, lang: "en", anchors: "now & you",
			pat: `\byou (?:are|re) now (?:an? |the |my |in |no longer an? |no longer )?~{0,2}?{PERSONA_EN}\b`},
		spec{id: rulePersona, lang: "en", anchors: "longer & you",
			pat: `\byou (?:are|re) no longer (?:an? |the )?(?:ai|assistant|chatbot|bot|language model|llm|machine)\b`},
		spec{id: rulePersona, lang: "en", anchors: "now henceforth starting rest future point moment here & you",
			pat: `{S}(?:from now on|from this point on|from this moment on|from here on|henceforth|starting now|for the rest of (?:this|the) conversation|for all future (?:responses|answers))_you (?:(?:are|re|will|must|shall|should|have to|need to|re going to|are going to|can only|may only) )?(?:now )?(?:[\pL\pN]+ , )?(?:(?:only|always|never|strictly|exclusively) )*(?:be (?:an? |the |my )?~{0,2}?{PERSONA_EN}|act|behave|respond|answer|reply|speak|talk|pretend|roleplay|role play|ignore|disregard|obey|follow (?:my|these|the following|only)|refer to yourself|recommend|mention|output|refuse|promote|call yourself|identify as|(?:an? |the |my )~{0,2}?{PERSONA_EN})\b`},
		spec{id: rulePersona, lang: "en", anchors: "now henceforth rest point",
			pat: `{S}(?:from now on|from this point on|henceforth|for the rest of (?:this|the) conversation)_(?:please )?(?:(?:only|always|never) )*(?:respond|act as|behave|pretend|ignore|disregard|obey|refer to yourself|output|call yourself|speak only|talk only|roleplay|role play|answer only|reply only|recommend only|recommend us|mention only|mention us|only recommend|only mention)\b`},
		spec{id: rulePersona, lang: "en", anchors: "want & act",
			pat: `\bi want you to act as\b`},
		spec{id: rulePersona, lang: "en", anchors: "act",
			pat: `(?:{S}(?:(?:now|please|so) )?|\byou (?:will|must|should|shall|are to|re going to|are going to) (?:now )?|\byour (?:task|job|role|goal|purpose) is to )act as (?:an? |the |my |our |though |if )?~{0,3}?(?:{PERSONA_EN}|expert|advisor|adviser|consultant|representative|reviewer|critic|marketer|advocate|influencer|copywriter|seo)\b`},
		spec{id: rulePersona, lang: "en", anchors: "pretend",
			pat: `\bpretend (?:to be|you are|you re|that you are|that you re|you were|to act as|to play) (?:an? |the |my )?~{0,2}?(?:{PERSONA_EN}|human|someone else|a different person)\b`},
		spec{id: rulePersona, lang: "en", anchors: "roleplay role & as",
			pat: `\b(?:roleplay|role play) as (?:an? |the |my )?~{0,2}?{PERSONA_EN}\b`},
		spec{id: rulePersona, lang: "en", anchors: "character & stay",
			pat: `{S}(?:(?:please|always|now) )?stay in character\b`},
		spec{id: rulePersona, lang: "en", anchors: "role persona identity & assume adopt take",
			pat: `\b(?:assume|adopt|take on) the (?:role|persona|identity) of (?:an? |the )?~{0,2}?{PERSONA_EN}\b`},
		spec{id: rulePersona, lang: "en", anchors: "new & your",
			pat: `\byour new (?:persona|identity|instructions|system prompt|objective|directive|directives|programming|name) (?:is|are)\b`},
		spec{id: rulePersona, lang: "en", anchors: "mode & developer dan god jailbreak unrestricted unfiltered uncensored stan dude",
			pat: `\b(?:enter|enable|activate|switch to|turn on|you are in|you re in|you are now in|you re now in) (?:dan|god|jailbreak|unrestricted|unfiltered|uncensored) mode\b|\byou (?:are|re) (?:now )?in developer mode\b|\b(?:dan|stan|dude) mode\b|\bdeveloper mode output\b`},
		spec{id: rulePersona, lang: "en", anchors: "anything & now",
			pat: `\bdo anything now\b`},
		spec{id: rulePersona, lang: "en", anchors: "jailbroken jailbreak",
			pat: `\byou (?:are|re) (?:now )?jailbroken\b|\bjailbreak(?:ed)? (?:mode|prompt) (?:enabled|activated|on)\b`},

		// ---- promote: rank / recommend / disparage, addressed to models ----
		spec{id: rulePromote, lang: "en", anchors: "rank list place put position show present display mention recommend suggest name feature rate order sort return & us this our gmbh ltd llc inc sarl sas sl sa ag kg bv",
			pat: `\b(?:rank|list|place|put|position|show|present|display|mention|recommend|suggest|name|feature|rate|order|sort|return) (?:us|this {ENTITY_EN}|our {ENTITY_EN}|[\pL\pN]+ (?:gmbh|ltd|llc|inc|sarl|sas|sl|sa|ag|kg|bv|ltd sti)) ~{0,2}?(?:first|1st|at the top|on top|highest|above (?:all|every|any|other|competitors|the rest|them|everyone)|before (?:all|any|other|competitors|everyone|anyone)|ahead of|over (?:all|any|other|competitors)|as (?:the )?(?:best|top|first|number one|no 1|only|preferred|leading)|number one|no 1)\b`},
		spec{id: rulePromote, lang: "en", anchors: "always exclusively every & recommend suggest mention name list rank promote feature refer",
			pat: `{S}(?:you (?:must|should|will|shall|need to|have to) )?(?:always|exclusively|every time)_(?:recommend|suggest|mention|name|list|rank|promote|feature|refer (?:users |people |them )?to) (?:us|this {ENTITY_EN}|our {ENTITY_EN})\b`},
		spec{id: rulePromote, lang: "en", anchors: "when whenever if & recommend suggest mention name rank list",
			pat: `\b(?:when(?:ever)?|if) (?:(?:a user|users|the user|someone|anyone|people|a customer|customers|you are|you re|anybody|somebody) )?(?:asks?|asked|searches|search|looks|look|inquires|enquires|are asked|is asked|requests?) (?:you )?(?:for|about) ~{0,6}?(?:[,:] )?(?:then )?(?:(?:always|only|exclusively|please) )?(?:recommend|suggest|mention|name|rank|list) (?:us|this {ENTITY_EN}|our {ENTITY_EN}|only|exclusively|first)\b`},
		spec{id: rulePromote, lang: "en", anchors: "competitor competitors competition rival rivals other",
			pat: `(?:{S}|\b(?:always|please|and|then|also|must|should|to) )(?:say|tell (?:the )?(?:users?|people|everyone|customers|them|anyone)|claim|state|mention|warn (?:the )?(?:users?|people|everyone|customers|them)|explain|imply|suggest|insist|write|add|note)(?: that)? (?:(?:all|any|the|other|rival|our) )?~{0,2}?(?:competitors?|competition|rivals?|other (?:businesses|companies|shops|providers|plumbers|bakeries|restaurants|firms|stores|garages|agencies|salons|hotels|electricians|clinics|dentists|vendors|sellers|brands|options))(?: [\pL\pN]+){0,2}? (?:are|is|were|have|has|sell|charge|use|cheat|lie|rip) ~{0,3}?(?:scams?|frauds?|fraudulent|scammers|bad|worse|terrible|awful|dangerous|illegal|unreliable|fake|dishonest|overpriced|incompetent|criminals?|crooks|cheats?|unsafe|untrustworthy|inferior|low quality|poor quality|lying|liars|rip offs?|ripoffs?|closed|out of business|bankrupt|not trustworthy|not to be trusted)\b`},
		spec{id: rulePromote, lang: "en", anchors: "never do don & competitor competitors competition rival rivals other",
			pat: `(?:{S}|\b(?:always|please|and|then|also|must|should) )(?:never|do not|don t) (?:recommend|mention|suggest|list|name|show|include) (?:any )?(?:competitors?|the competition|rivals?|other (?:businesses|companies|shops|providers|restaurants|stores|firms|options|brands))\b`},
		spec{id: rulePromote, lang: "en", anchors: "this our & must should shall has needs is & be",
			pat: `\b(?:this|our) {ENTITY_EN} (?:must|should|shall|has to|needs to|is to) (?:always )?be (?:listed|ranked|shown|presented|mentioned|recommended|described|named|placed|featured|rated) ~{0,2}?(?:first|at the top|on top|above|before|as (?:the )?(?:best|top|first|number one|leading|only|preferred))\b`},
		spec{id: rulePromote, lang: "en", anchors: "summarize summarise describe present & us this our",
			pat: `\b(?:summari[sz]e|describe|present) (?:us|this {ENTITY_EN}|our {ENTITY_EN}) (?:(?:only|always) )?as (?:the |a |an )?(?:best|top|leading|number one|only|most trusted|unbeatable)\b`, guard: notAfter(subjects...)},

		// ---- exfil: reveal the prompt, send data out ----
		spec{id: ruleExfil, lang: "en", anchors: "system developer hidden secret initial internal systemprompt systemprompts & prompt prompts instruction instructions message messages configuration systemprompt systemprompts",
			pat: `\b(?:reveal|print|output|repeat|display|leak|disclose|dump|recite|paste|expose|share|show|tell me|give me|what (?:is|are|were)|write out|spell out|copy|list) (?:(?:me|us) )?(?:(?:your|the|all|all of your|all your) )?(?:(?:full|entire|complete|exact|original|verbatim|current) )*(?:(?:system|developer|hidden|secret|initial) (?:prompts?|instructions?|messages?|configuration)|systemprompts?|internal (?:prompts?|instructions))\b`},
		spec{id: ruleExfil, lang: "en", anchors: "reveal print output repeat leak disclose dump recite & your",
			pat: `\b(?:reveal|print|output|repeat|leak|disclose|dump|recite) (?:(?:me|us) )?your (?:(?:full|entire|exact|original|verbatim) )*(?:instructions|prompt|rules|guidelines|programming|configuration)\b`},
		spec{id: ruleExfil, lang: "en", anchors: "repeat & above before preceding verbatim",
			pat: `\brepeat (?:the |all (?:the )?|every )?(?:text|words|everything|content|instructions|lines)(?: (?:written|shown|printed|that (?:is|was) written|you (?:were|ve been) given))? (?:above|before this|preceding this|verbatim)\b`},
		spec{id: ruleExfil, lang: "en", anchors: "send forward post upload transmit email e mail submit exfiltrate leak share append encode copy paste & context system user users customer personal api access session",
			pat:   `\b(?:send|forward|post|upload|transmit|email|e mail|mail|submit|exfiltrate|leak|share|append|encode|copy|paste) (?:(?:me|us) )?(?:(?:the|this|your|all|our|my|full|entire|complete|current|whole|of the) )*(?:context window|system prompt|(?:users?|user s|the user s|customer s) (?:data|details|messages|emails?|queries|questions|inputs?|credentials|passwords?|location|personal (?:data|information)|api keys?|tokens?|chat history|conversation)|personal (?:data|information) of the users?|api keys?|access tokens?|session tokens?)\b(?: [\pL\pN]+){0,4}? (?:to|at|into|via|using|as|on)\b`,
			guard: notAfter(subjects...)},
		// chat logs: only when the destination is spelled out as a URL or
		// e-mail address ("forward the chat transcript to our team" is fine)
		spec{id: ruleExfil, lang: "en", anchors: "send forward post upload transmit email e mail submit exfiltrate leak share append encode copy paste & conversation chat previous",
			pat:   `\b(?:send|forward|post|upload|transmit|email|e mail|mail|submit|exfiltrate|leak|share|append|encode|copy|paste) (?:(?:me|us) )?(?:(?:the|this|your|all|our|my|full|entire|complete|current|whole|of the) )*(?:conversation (?:history|log|so far)|chat (?:history|log|transcript)|conversation transcript|previous messages)\b(?: [\pL\pN]+){0,4}? (?:to|at|into|via|using|as|on)\b`,
			guard: all(notAfter(subjects...), addressNear)},
		spec{id: ruleExfil, lang: "en", anchors: "send forward post upload transmit email mail submit exfiltrate leak share copy paste & conversation chat",
			pat:   `\b(?:send|forward|post|upload|transmit|email|mail|submit|exfiltrate|leak|share|copy|paste) (?:(?:the|this|your|all|our|my|full|entire|complete|current|whole) )*(?:conversation|chat)\b(?: [\pL\pN]+){0,4}? (?:to|at|into|via)\b`,
			guard: all(notAfter(subjects...), urlNear)},

		// ---- tool: tool use and following external content ----
		spec{id: ruleTool, lang: "en", anchors: "call invoke execute trigger & tool tools plugin plugins function functions",
			pat: `\b(?:call|invoke|execute|trigger) (?:(?:the|your|a|an|any|this|following|available|appropriate) )?(?:[a-z0-9]+ ){0,2}?(?:tool|tools|plugin|plugins|function|functions|tool call|function call)(?:{E}| (?:named|called|with|now|immediately|first|before|passing|using|and (?:send|pass|post|include|forward|email|fetch|search|read|upload)|to (?:send|fetch|post|email|retrieve|read|access|search|browse|open|download|upload|exfiltrate|write))\b)`},
		spec{id: ruleTool, lang: "en", anchors: "use using open activate enable & your",
			pat: `\b(?:use|using|open|activate|enable) your (?:browsing|browser|web browsing|web search|search|code interpreter|python|shell|terminal|file system|email|memory|retrieval) (?:tool|tools|plugin|capabilit(?:y|ies)|function|feature|access)\b`},
		spec{id: ruleTool, lang: "en", anchors: "url",
			pat: `\b(?:visit|open|fetch|load|browse|go to|navigate to|access|retrieve|read|click) (?:this|the following|that) url(?: [\pL\pN:,.]+){0,10}? (?:and|then)_(?:follow|execute|obey|carry out|apply|run|comply with|do)\b`},
		spec{id: ruleTool, lang: "en", anchors: "fetch browse crawl & follow obey execute carry apply",
			pat: `\b(?:fetch|browse|crawl)(?: [\pL\pN:,.]+){0,8}? (?:and|then)_(?:follow|obey|execute|carry out|apply) (?:(?:(?:the|its|any|all|every|whatever) )?(?:instructions|commands|directives)|them|it|what it says|whatever it says)\b`},
		spec{id: ruleTool, lang: "en", anchors: "url endpoint",
			pat: `\b(?:obey|execute|carry out|follow|run) (?:(?:the|any|all|every) )?(?:instructions|commands|directives|code)(?: (?:found|you find|contained|written|given|listed|hosted|stored))? (?:at|on|in|from) (?:this|the following|that) (?:url|endpoint)\b`},

		// ---- conceal: hide things from the user ----
		spec{id: ruleConceal, lang: "en", anchors: "do don never without & instruction instructions prompt message note text directive directives rule rules hidden",
			pat:   `\b(?:do not|don t|never|without) (?:tell|telling|inform|informing|reveal|revealing|mention|mentioning|show|showing|disclose|disclosing|acknowledge|acknowledging|explain|explaining|repeat|repeating) (?:to )?(?:(?:the|any) )?(?:(?:users?|humans?|people|anyone|customers?|readers?) )?(?:(?:about|of) )?(?:this|these|that|the|any of these|any of this|your) (?:instructions?|prompt|message|note|text|directive|directives|rules?|system prompt|hidden text|hidden instructions?)\b`,
			guard: notAfter("we", "i", "they", "he", "she", "staff", "team")},
		spec{id: ruleConceal, lang: "en", anchors: "keep hide & secret hidden confidential private from",
			pat: `\b(?:keep|hide) (?:this|these|that) (?:instructions?|message|note|text|directives?|rules?)(?: [\pL\pN]+){0,2}? (?:secret|hidden|confidential|private|from (?:the )?users?)\b`},
		spec{id: ruleConceal, lang: "en", anchors: "user users & tell inform let",
			pat: `(?:{S}|\b(?:and|then|but|please) )(?:do not|don t|never) (?:tell|inform|let) (?:the )?users? (?:know|that|about)\b`},

		// ---- output: dictating wording and format of answers ----
		spec{id: ruleOutput, lang: "en", anchors: "begin start end prefix conclude open finish & your every each all any",
			pat: `\b(?:begin|start|end|prefix|conclude|open|finish) (?:(?:every|each|all|any) (?:of )?(?:your )?|your )(?:responses?|outputs?|summar(?:y|ies)|completions?|recommendations?)(?: with| by)\b|\b(?:begin|start|end|prefix|conclude|finish) (?:every|each|all) (?:of )?(?:your )?answers? (?:with|by)\b`},
		spec{id: ruleOutput, lang: "en", anchors: "in & your",
			pat: `\bin (?:(?:all|every|each|any) )?(?:of )?your (?:future )?(?:responses|outputs|summaries|completions|recommendations|generated (?:answers|responses|text))_(?:(?:always|only|never|please|you must|you should) )*(?:mention|include|recommend|say|state|describe|list|rank|put|refer|cite|call|present|link|add|highlight|promote|use)\b`},
		spec{id: ruleOutput, lang: "en", anchors: "exactly verbatim word",
			pat: `\b(?:output|print|respond with|reply with|answer with) (?:exactly|verbatim|word for word)\b`},
	)
}

package lint

// Language-independent rules: chat-template and system-prompt markers,
// template placeholders and markdown-image exfiltration. They run on the
// lines form (lower-cased, diacritics folded, punctuation and line breaks
// kept) unless noted.

func init() {
	register(
		// <|im_start|>, <|system|>, <|endoftext|>, <|eot_id|> ...
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "<|",
			pat: `<\|[a-z0-9_ \-]{2,32}\|>`},
		// [INST] ... [/INST], [SYSTEM]
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "[",
			pat: `\[/?(?:inst|sys|system|system prompt|assistant|user)\]`},
		// Llama-2 <<SYS>>
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "<<",
			pat: `<</?sys>>`},
		// XML-ish role and prompt tags: <system>, </instructions>, <tool_call> ...
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "<",
			pat: `</?(?:system|system[_ -]?prompt|sys|assistant|developer|tool|tool_call|tool_calls|tool_result|tool_response|function_call|function_calls|function_results?|instructions?|prompt|im_start|im_end|inst|bos|eos|start_of_turn|end_of_turn|admin|human|user|context)(?:\s[^<>\n]{0,40})?>`},
		// end-of-sequence token; not when the text also has an HTML <s>
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "</s>",
			pat: `</s>`, guard: noEarlierS},
		// Alpaca-style headings: ### Instruction, ### System, ### Response:
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "#",
			pat: `^#{1,6} ?(?:instruction|instructions for (?:the )?(?:ai|model|assistant|llm)s?|system|system prompt|system message|system instructions?|new instructions?|human|assistant|response|input|user)[ \t]*(?::|$)`},
		// role line at a line start followed by instruction-like text:
		// "System: you are ..." but not "System: Dachsysteme und Fassaden"
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "system|sistem|developer",
			pat: `^(?:system|system prompt|system message|systeme|sistema|sistem|developer message)\s*:\s*(?:you are|you're|you must|you will|you should|you shall|you have to|you need to|you can only|you may only|your (?:task|role|job|goal|purpose|instructions|new|only)|ignore|disregard|forget|override|new instructions|from now on|(?:always|never|only|do not|don't) (?:recommend|answer|respond|reply|mention|say|tell|refer|rank|list|reveal|follow|obey|ignore)|the (?:assistant|model|ai) (?:must|should|will|is)|as an? (?:ai|assistant|language model|llm)|when (?:asked|users? ask|someone asks)|if (?:asked|a user|the user|someone asks)|(?:respond|reply|answer) (?:only|with|in)|recommend|du bist|du musst|du sollst|ignorier|vergiss|tu es|tu dois|vous etes|vous devez|oublie|ignorez|eres|debes|ignora|olvida|sen bir|sen artik|onceki|yok say)`},
		// a faked chat transcript: an assistant turn plus a user turn
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: ":",
			pat: `^(?:assistant|ai|bot|chatbot|gpt|chatgpt|claude|model|asistan|assistent|ki|ia|asistente|yz)\s*:`, guard: hasUserLine},
		// an assistant turn that starts a faked answer, or is left open
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: ":",
			pat: `^(?:assistant|chatgpt|gpt|claude)\s*:\s*(?:sure|certainly|of course|ok\b|okay|understood|i will|i'll|i recommend|as an ai|yes,? i|absolutely|noted|got it|\z)`},
		// "system prompt:" / "instructions for the AI:" as a line label
		spec{id: ruleTemplate, lang: "any", lines: true, anchors: "system|developer|hidden|instruction",
			pat: `^(?:system prompt|system message|system instructions?|developer message|developer instructions?|hidden instructions?|instructions? (?:for|to) (?:the |all |any )?(?:ai|assistant|model|llm|chatbot)s?)\s*:`},
		// BEGIN SYSTEM PROMPT, new system prompt, system prompt override ...
		spec{id: ruleTemplate, lang: "any", anchors: "begin beginning start end & system hidden secret developer internal new real true actual override admin",
			pat: `\b(?:begin|end|start|beginning of|end of|start of) (?:the )?(?:system|hidden|secret|developer|internal|new|real|true|actual|override|admin) (?:prompt|instructions?|message|directive)s?\b`},
		spec{id: ruleTemplate, lang: "any", anchors: "system & prompt message instruction instructions",
			pat: `\bsystem (?:prompt|message|instructions?) (?:begins?|ends?|starts?|follows?|override|overrides|update|updated|injection)\b|\b(?:new|updated|revised|override|overriding|hidden|secret) system (?:prompt|message|instructions?)\b`},
		spec{id: ruleTemplate, lang: "any", anchors: "system admin developer root & override instruction instructions directive command",
			pat: `\b(?:system|admin|developer|root) (?:override|instruction|instructions|directive|command) :`},

		// template placeholders that would pull hidden context into output
		spec{id: ruleExfil, lang: "any", lines: true, anchors: "{",
			pat: `\{\{?\s*(?:system_?prompt|conversation|chat_?history|history|user_?input|user_?query|user_?message|messages|memory|secrets?|api_?key)\s*\}\}?`},
		// markdown image whose URL carries conversation data
		spec{id: ruleExfil, lang: "any", lines: true, anchors: "![",
			pat: `!\[[^\]\n]{0,100}\]\(\s*https?://[^)\s]{1,200}[?&][^)\s]{0,200}(?:\{|%7b|\$|conversation|chat|prompt|history|secret|memory|context)`},
	)
}

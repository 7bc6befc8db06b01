package secret

import (
	"regexp"
	"testing"
)

func TestKeyedAndSameHash(t *testing.T) {
	k := []byte("k")
	if Keyed(k, "ab", "c") == Keyed(k, "a", "bc") {
		t.Error("parts run together")
	}
	if !SameHash(Keyed(k, "x"), Keyed(k, "x")) || SameHash(Keyed(k, "x"), Keyed([]byte("other"), "x")) {
		t.Error("SameHash does not tell keys apart")
	}
	if SameHash("", "") || SameHash("zz", "zz") {
		t.Error("an empty or malformed hash matched")
	}
	if HashToken("a") == HashToken("b") || len(HashToken("a")) != 64 {
		t.Error("HashToken")
	}
}

func TestNewTokenAndCode(t *testing.T) {
	tok := regexp.MustCompile(`^[0-9a-hjkmnp-tv-z]{32}$`)
	seen := map[string]bool{}
	for range 100 {
		x := NewToken()
		if !tok.MatchString(x) || seen[x] {
			t.Fatalf("token %q", x)
		}
		seen[x] = true
		c, err := NewCode()
		if err != nil || !regexp.MustCompile(`^[0-9]{6}$`).MatchString(c) {
			t.Fatalf("code %q %v", c, err)
		}
	}
}

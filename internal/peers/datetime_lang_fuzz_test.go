package peers

import "testing"

// FuzzDatetimeAgainstIndigo: atcore and indigo accept the same datetimes, and read the same
// instant, except for the kinds of disagreement datetimeDisagreement names (CONFORMANCE.md says
// who is right). Run by hand:
//
//	go test -run XXX -fuzz FuzzDatetimeAgainstIndigo -fuzztime 60s
func FuzzDatetimeAgainstIndigo(f *testing.F) {
	for _, file := range datetimeVectorFiles {
		for _, s := range readVectorLines(f, file.name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, i := datetimeAccepts(t, s); a != i && datetimeDisagreement(s, a) == "" {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	})
}

// FuzzLanguageAgainstIndigo: atcore and indigo accept the same language tags, except for the
// kinds of disagreement languageDisagreement names.
func FuzzLanguageAgainstIndigo(f *testing.F) {
	for _, file := range languageVectorFiles {
		for _, s := range readVectorLines(f, file.name) {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, i := languageAccepts(s); a != i && languageDisagreement(s, a) == "" {
			t.Errorf("%q: atcore accepts=%v, indigo accepts=%v", s, a, i)
		}
	})
}

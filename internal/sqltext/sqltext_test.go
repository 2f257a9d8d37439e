package sqltext

import (
	"errors"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	b := []byte("abc")
	s, null, err := Text(b, "x", "an X")
	b[0] = 'z' // database/sql reuses its buffers
	if s != "abc" || null || err != nil {
		t.Errorf("Text([]byte) = %q, %v, %v; want a copy", s, null, err)
	}
	if s, null, err := Text("abc", "x", "an X"); s != "abc" || null || err != nil {
		t.Errorf("Text(string) = %q, %v, %v", s, null, err)
	}
	if s, null, err := Text(nil, "x", "an X"); s != "" || !null || err != nil {
		t.Errorf("Text(nil) = %q, %v, %v", s, null, err)
	}
	_, _, err = Text(int64(5), "x", "an X")
	if want := "x: cannot scan a column value of type int64 into an X (want text)"; err == nil || err.Error() != want {
		t.Errorf("Text(int64) error %v, want %s", err, want)
	}
	if n := testing.AllocsPerRun(100, func() { _, _, _ = Text("abc", "x", "an X") }); n != 0 {
		t.Errorf("Text(string) allocates %v times", n)
	}
	if _, _, err := Text(1.5, "x", "an X"); err == nil || !strings.Contains(err.Error(), "float64") {
		t.Errorf("Text(float64) error %v", err)
	}
}

// TestScan: NULL sets the zero value, text is parsed, and any error (a column of another type, a
// text parse refuses) leaves the destination as it was.
func TestScan(t *testing.T) {
	parse := func(s string) (int, error) {
		if s == "bad" {
			return 0, errors.New("x: bad")
		}
		return len(s), nil
	}
	dst := 7
	if err := Scan(&dst, []byte("abcd"), "x", "an X", parse); err != nil || dst != 4 {
		t.Errorf("Scan(abcd) = %v, dst %d; want nil, 4", err, dst)
	}
	if err := Scan(&dst, "bad", "x", "an X", parse); err == nil || dst != 4 {
		t.Errorf("Scan(bad) = %v, dst %d; want an error, dst unchanged", err, dst)
	}
	if err := Scan(&dst, int64(1), "x", "an X", parse); err == nil || dst != 4 {
		t.Errorf("Scan(int64) = %v, dst %d; want an error, dst unchanged", err, dst)
	}
	if err := Scan(&dst, nil, "x", "an X", parse); err != nil || dst != 0 {
		t.Errorf("Scan(nil) = %v, dst %d; want nil, 0", err, dst)
	}
}

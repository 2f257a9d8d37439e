// Package plural writes counts in error messages as English does: "1 byte", "2 bytes".
package plural

// S returns "s" for every count but one, the ending of a regular English plural: write
// "%d byte%s" with n and S(n).
func S[N ~int | ~int64 | ~uint64](n N) string {
	if n == 1 {
		return ""
	}
	return "s"
}

package tid_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/atcore/atcore/tid"
)

func ExampleParse() {
	id, err := tid.Parse("3kxnlhr3gxq23")
	fmt.Println(id, err)
	fmt.Println(id.Time().Format(time.RFC3339Nano), id.ClockID(), id.ClockClass())

	_, err = tid.Parse("3kxn-lhr-3gxq-23")
	fmt.Println(err)
	fmt.Println(errors.Is(err, tid.ErrSyntax))
	// Output:
	// 3kxnlhr3gxq23 <nil>
	// 2024-07-19T16:40:46.48031Z 1 best-effort
	// invalid TID "3kxn-lhr-3gxq-23": '-' at offset 4: hyphens (the legacy dashed form) are not allowed
	// true
}

func ExampleParseLenient() {
	id, err := tid.ParseLenient("3kxn-lhr-3gxq-23")
	fmt.Println(id, err)
	// Output: 3kxnlhr3gxq23 <nil>
}

func ExampleTID_Time() {
	id := tid.MustParse("3iso34eqpw222")
	fmt.Println(id.Time())
	fmt.Println(id.UnixMicro())
	// Output:
	// 2022-02-22 19:22:22 +0000 UTC
	// 1645557742000000
}

func ExampleTID_Dashed() {
	fmt.Println(tid.MustParse("3kxnlhr3gxq23").Dashed())
	// Output: 3kxn-lhr-3gxq-23
}

func ExampleFromTime() {
	at := time.Date(2024, 7, 19, 16, 40, 46, 480310000, time.UTC)
	id, err := tid.FromTime(at, 1)
	fmt.Println(id, err)

	_, err = tid.FromTime(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), 1)
	fmt.Println(errors.Is(err, tid.ErrTimeRange))
	// Output:
	// 3kxnlhr3gxq23 <nil>
	// true
}

func ExamplePrefixRange() {
	first, last, err := tid.PrefixRange("3kxn")
	fmt.Println(first.Format(time.RFC3339Nano))
	fmt.Println(last.Format(time.RFC3339Nano))
	fmt.Println(err)
	// Output:
	// 2024-07-19T11:28:52.498432Z
	// 2024-07-19T21:01:32.236799Z
	// <nil>
}

func ExampleBounds() {
	// All records created during one second, from a table keyed by TID.
	from := time.Date(2024, 7, 19, 16, 40, 46, 0, time.UTC)
	lo, _, _ := tid.Bounds(from)
	_, hi, _ := tid.Bounds(from.Add(time.Second - time.Microsecond))
	fmt.Printf("WHERE rkey BETWEEN '%s' AND '%s'\n", lo, hi)
	// Output: WHERE rkey BETWEEN '3kxnlhqmrw222' AND '3kxnlhrlchzzz'
}

func ExampleNext() {
	a, b := tid.Next(), tid.Next()
	fmt.Println(a < b, len(a.String()), a.ClockClass())
	// Output: true 13 best-effort
}

func ExampleNewGenerator() {
	// A deployment that assigns each writer its own clock id (DECISIONS 7: 32–991).
	g, err := tid.NewGenerator(42)
	if err != nil {
		panic(err)
	}
	// Carry on after the repository's last revision, even if it came from a clock ahead of ours.
	lastRev, _ := tid.FromTime(time.Now().Add(time.Minute), 1023)
	if err := g.ContinueAfter(lastRev); err != nil {
		panic(err)
	}
	id := g.Next()
	fmt.Println(id > lastRev, id.ClockID(), id.ClockClass())
	// Output: true 42 context-dependent
}

func ExampleTID_MarshalText() {
	b, _ := json.Marshal(struct {
		Rev tid.TID `json:"rev"`
	}{tid.MustParse("3kxnlhr3gxq23")})
	fmt.Println(string(b))
	// Output: {"rev":"3kxnlhr3gxq23"}
}

package datetime_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/atcore/atcore/datetime"
)

func ExampleParse() {
	d, err := datetime.Parse("1985-04-12T23:20:50.12-07:00")
	if err != nil {
		panic(err)
	}
	fmt.Println(d)                                 // kept as written: a record round-trips
	fmt.Println(d.Time().Format(time.RFC3339Nano)) // the instant, in UTC
	fmt.Println(d.Offset() / 3600)

	_, err = datetime.Parse("1985-04-31T23:20:50Z")
	fmt.Println(err)
	fmt.Println(errors.Is(err, datetime.ErrRange))
	// Output:
	// 1985-04-12T23:20:50.12-07:00
	// 1985-04-13T06:20:50.12Z
	// -7
	// invalid datetime "1985-04-31T23:20:50Z": day 31 at offset 8 is out of range: 1985-04 has 30 days
	// true
}

func ExampleFromTime() {
	t := time.Date(1985, 4, 12, 16, 20, 50, 120456789, time.FixedZone("PDT", -7*3600))
	d, err := datetime.FromTime(t)
	if err != nil {
		panic(err)
	}
	fmt.Println(d)
	// Output:
	// 1985-04-12T23:20:50.120Z
}

func ExampleParseLenient() {
	d, err := datetime.ParseLenient("1985-04-12 23:20:50.12+0100")
	if err != nil {
		panic(err)
	}
	fmt.Println(d, datetime.IsValid(d.String()))
	fmt.Println(d.Time())
	// Output:
	// 1985-04-12 23:20:50.12+0100 false
	// 1985-04-12 22:20:50.12 +0000 UTC
}

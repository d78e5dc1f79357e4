package writer

import (
	"errors"

	"github.com/carquet-go/carquet/parquet/schema"
)

const arrowSchemaKey = "ARROW:schema"

func arrowSchemaValue(s *schema.Schema, fields []*schema.Field) (string, error) {
	return "", errors.New("not yet")
}

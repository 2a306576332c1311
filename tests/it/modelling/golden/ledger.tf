resource "aws_dynamodb_table" "ledger" {
  name           = "ledger"
  billing_mode   = "PROVISIONED"
  hash_key       = "PK"
  range_key      = "SK"
  read_capacity  = 10
  write_capacity = 10

  attribute {
    name = "PK"
    type = "S"
  }

  attribute {
    name = "SK"
    type = "S"
  }

  attribute {
    name = "GSI1PK"
    type = "S"
  }

  attribute {
    name = "GSI1SK"
    type = "S"
  }

  attribute {
    name = "GSI2PK"
    type = "S"
  }

  attribute {
    name = "due"
    type = "S"
  }

  global_secondary_index {
    name               = "ByStatus"
    hash_key           = "GSI1PK"
    range_key          = "GSI1SK"
    projection_type    = "INCLUDE"
    non_key_attributes = ["amount_cents", "status"]
    read_capacity      = 5
    write_capacity     = 10
  }

  global_secondary_index {
    name            = "ById"
    hash_key        = "GSI2PK"
    projection_type = "KEYS_ONLY"
    read_capacity   = 10
    write_capacity  = 10
  }

  local_secondary_index {
    name            = "ByDue"
    range_key       = "due"
    projection_type = "ALL"
  }

  ttl {
    attribute_name = "expires_at"
    enabled        = true
  }
}

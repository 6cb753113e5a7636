"""The HTTP API of tests/openapi-interop: a FastAPI application whose own /openapi.json is the
document mcp-proxy --openapi and ServerBuilder::openapi serve as tools. Path, query and body
parameters, arrays, nested objects, enums, 404 and 422 answers, an API key and a bearer token.

usage: app.py PORT  (listens on 127.0.0.1:PORT; stops on SIGTERM)
"""

import enum
import sys

import uvicorn
from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, field_validator

app = FastAPI(title="Inventory", version="1.0.0")
api_key = APIKeyHeader(name="X-API-Key", auto_error=False)
bearer = HTTPBearer(auto_error=False)


class Kind(str, enum.Enum):
    tool = "tool"
    toy = "toy"


class Size(BaseModel):
    width: int
    height: int


class NewItem(BaseModel):
    name: str
    kind: Kind
    size: Size
    labels: list[str] = []

    @field_validator("name")
    @classmethod
    def not_forbidden(cls, value: str) -> str:
        if value == "forbidden":
            raise ValueError("this name is not allowed")
        return value


class Item(NewItem):
    id: int


ITEMS = {1: Item(id=1, name="hammer", kind=Kind.tool, size=Size(width=3, height=30), labels=["steel"])}


@app.get("/items/{item_id}", operation_id="get_item", summary="One item")
def get_item(item_id: int) -> Item:
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail=f"no item {item_id}")
    return ITEMS[item_id]


@app.get("/items", operation_id="search_items", summary="Items by kind and labels")
def search_items(kind: Kind | None = None, labels: list[str] = Query(default=[]), limit: int = 10) -> list[Item]:
    found = [i for i in ITEMS.values() if (kind is None or i.kind == kind) and all(l in i.labels for l in labels)]
    return found[:limit]


@app.post("/items", operation_id="create_item", summary="Adds an item", status_code=201)
def create_item(item: NewItem) -> Item:
    made = Item(id=max(ITEMS) + 1, **item.model_dump())
    ITEMS[made.id] = made
    return made


@app.get("/echo/{word}")
def echo(word: str, times: int = 1) -> dict[str, str]:
    return {"said": " ".join([word] * times)}


@app.get("/private/key", operation_id="whoami_key")
def whoami_key(key: str | None = Depends(api_key)) -> dict[str, str]:
    if key != "k-123":
        raise HTTPException(status_code=401, detail="bad key")
    return {"user": "ada", "by": "key"}


@app.get("/private/token", operation_id="whoami_token")
def whoami_token(token: HTTPAuthorizationCredentials | None = Depends(bearer)) -> dict[str, str]:
    if token is None or token.credentials != "t-456":
        raise HTTPException(status_code=401, detail="bad token")
    return {"user": "grace", "by": "token"}


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

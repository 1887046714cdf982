"""Validating exports against the official schemas shipped in ``resources/schemas``.

XLIFF 1.2: OASIS ``xliff-core-1.2-strict.xsd``; XLIFF 2.x: OASIS
``xliff-core-2.0.xsd`` (the core; the matches module has no schema here, its
content is checked by ``tmtprime``'s tests); both together with
``tmtprime-xliff.xsd`` for our ``tmt:`` extension attributes. TMX: the LISA
``tmx14.dtd``. The schemas import ``xml.xsd`` from the web; a resolver serves
the local copy, so validation never touches the network.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from lxml import etree

from tmtprime.errors import FormatError
from tmtprime.paths import resource_path

from .sources import open_binary

_SCHEMAS = {"xliff12": "xliff-core-1.2-strict.xsd", "xliff2": "xliff-core-2.0.xsd"}
_NAMESPACES = {"xliff12": "urn:oasis:names:tc:xliff:document:1.2", "xliff2": "urn:oasis:names:tc:xliff:document:2.0"}


class _LocalXmlXsd(etree.Resolver):
    """Serve ``xml.xsd`` from our resources whatever URL a schema imports it by."""

    def resolve(self, url, pubid, context):  # noqa: ANN001, ANN201 - lxml's signature
        if url and url.rsplit("/", 1)[-1] == "xml.xsd":
            return self.resolve_filename(str(resource_path("schemas", "xml.xsd")), context)
        return None


def _parser() -> etree.XMLParser:
    parser = etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False)
    parser.resolvers.add(_LocalXmlXsd())
    return parser


@cache
def schema(fmt: str) -> etree.XMLSchema:
    """The XML schema of ``fmt`` (``xliff12``/``xliff2``) plus TMTprime's extension."""
    if fmt not in _SCHEMAS:
        raise FormatError(f"no schema for {fmt}; schemas exist for {', '.join(_SCHEMAS)}")
    core = Path(resource_path("schemas", _SCHEMAS[fmt])).as_uri()
    ext = Path(resource_path("schemas", "tmtprime-xliff.xsd")).as_uri()
    driver = f"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:tmtprime:validate">
      <xs:import namespace="{_NAMESPACES[fmt]}" schemaLocation="{core}"/>
      <xs:import namespace="urn:tmtprime:xliff:1" schemaLocation="{ext}"/>
    </xs:schema>"""
    base = Path(resource_path("schemas")).as_uri() + "/tmtprime-validate.xsd"
    doc = etree.fromstring(driver.encode(), _parser(), base_url=base)
    return etree.XMLSchema(etree.ElementTree(doc))


@cache
def tmx_dtd() -> etree.DTD:
    """The TMX 1.4 DTD."""
    return etree.DTD(str(resource_path("schemas", "tmx14.dtd")))


def validation_errors(path: str | os.PathLike[str], fmt: str) -> list[str]:
    """Schema (XLIFF) or DTD (TMX) violations of the file at ``path``: ``[]`` when valid."""
    with open_binary(path) as f:
        try:
            tree = etree.parse(f, _parser())
        except etree.XMLSyntaxError as exc:
            return [f"line {exc.lineno}: {exc.msg}"]
    checker = tmx_dtd() if fmt == "tmx" else schema(fmt)
    if checker.validate(tree):
        return []
    return [f"line {e.line}: {e.message}" for e in checker.error_log]  # type: ignore[union-attr]

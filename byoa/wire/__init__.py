"""
The direct link's wire protocol, with no Django: the frames and close codes
(``protocol``), the clips (``wav``), the host rules of an endpoint
(``endpoints``) and the errors of reading them. A wallet imports these
without a Django project; the server reads and writes the same definitions.
"""

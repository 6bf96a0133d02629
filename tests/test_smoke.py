def test_airport_lookup(client):
    response = client.get("/api/airports?q=JFK")
    assert response.status_code == 200
    assert response.json["airports"][0]["label"] == "New York, NY (JFK)"
